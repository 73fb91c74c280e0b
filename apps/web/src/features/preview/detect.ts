/**
 * docs/product.md "Screens" Previewer: the kind of view a file gets, by its mime type or else its
 * extension, from the one file-type table (@sealbox/rules file-types.ts). Only the types listed
 * there are previewed; anything else (text/html among them) is 'unsupported'.
 */
export { extensionOf, previewKind as detectKind } from '@sealbox/rules';

/**
 * docs/product.md "Screens": what the unsupported screen says under 'Unsupported File Type':
 * 'Preview is not available for .{ext} files', or 'Preview is not available for this file' without
 * an extension.
 */
export function unsupportedText(extension: string): string {
  return `Preview is not available for ${extension ? `.${extension} files` : 'this file'}`;
}
