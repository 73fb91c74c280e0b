/** docs/product.md "Limits": the initial load asks for 2147483648 items, i.e. the whole folder. */
export const ALL_ITEMS = 2_147_483_648;
/** docs/product.md "Limits": folder download and search gather descendants up to depth 20. */
export const TREE_DEPTH = 20;
