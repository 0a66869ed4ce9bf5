/**
 * Whether `git check-ref-format --branch <name>` accepts `name` — a pure re-implementation of
 * git's rules (git-check-ref-format(1)) for `refs/heads/<name>`: no component starting with `.` or
 * ending with `.lock`, no `..`, no control characters, space, `~ ^ : ? * [ \`, no `@{`,
 * no leading, trailing or doubled `/`, no trailing `.`, and (for a branch) no leading `-` and not `HEAD`.
 */
export function isValidBranchName(name: string): boolean {
  if (name === '' || name === 'HEAD' || name.startsWith('-')) return false;
  if (name.includes('..') || name.includes('@{') || name.endsWith('.')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  const components = name.split('/');
  return components.every(
    (component) => component !== '' && !component.startsWith('.') && !component.endsWith('.lock'),
  );
}
