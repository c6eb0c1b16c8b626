// A module of its own so that the styles come in a chunk of their own, shared by every lazy screen.
import './mantine-more.css';
