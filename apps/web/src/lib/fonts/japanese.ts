// Noto Sans JP, as a variable font split by Unicode range: loaded with the Japanese catalog.
import '@fontsource-variable/noto-sans-jp';
