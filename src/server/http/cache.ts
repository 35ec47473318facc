/** For a response whose URL names its content (a hash or an id that is never reused): kept for good. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
