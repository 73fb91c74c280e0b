/** The app's top bar: links, theme, live status and the account's menu. */
export { Navbar } from './Navbar.tsx';
