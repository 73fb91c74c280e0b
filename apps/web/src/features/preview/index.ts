/**
 * The previewer (SPEC 2 /preview, full-screen viewer of images, video, audio, PDF and text)
 * arrives with its own issue; /preview shows a local file until then.
 */
export {};
