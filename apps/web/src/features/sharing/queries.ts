/**
 * The sharing feature's server state (shares, links, a link's listing) arrives with the
 * sharing issue; its keys and `queryOptions` go here.
 */
export {};
