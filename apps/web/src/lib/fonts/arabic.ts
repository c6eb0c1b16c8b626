// Noto Sans Arabic, as a variable font split by Unicode range: loaded with the Arabic catalog.
import '@fontsource-variable/noto-sans-arabic';
