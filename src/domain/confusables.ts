/**
 * The Unicode confusables table (UTS #39, through `unhomoglyph`), built as its own bundle (dist/confusables.js) and
 * required by optionChoice.ts on the first name comparison, so activation does not load 100 KB of data.
 */
export { default as unhomoglyph } from 'unhomoglyph';
