// Look-alike keys: an advisory beside fold v1 that catches homoglyph and ASCII look-alike copies.
export { ASCII_LOOKALIKES, asciiLookalikeFold } from "./asciiLookalikes";
export { lookalikeKey, lookalikeKeyOfIdentity, lookalikeText } from "./lookalikeKey";
export { CONFUSABLES_UNICODE_VERSION, skeleton } from "./skeleton";
