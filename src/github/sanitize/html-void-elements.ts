/**
 * The HTML elements that have no content and no end tag (the HTML standard's void elements, with the obsolete
 * `keygen` and `param` that browsers still treat so): after `<img …>` or `<br>`, the text that follows is outside the
 * element. Shared by the sanitizer (a hidden void element goes alone) and the unrendered-text mask (a void element
 * never stays open).
 */
export const htmlVoidElements: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
