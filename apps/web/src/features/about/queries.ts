/** The about page is static: no server state. */
export {};
