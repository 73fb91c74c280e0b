/** The navigation bar owns no server state (the profile it shows is the auth feature's). */
export {};
