/** pi's built-in tools (`pi --help`), and those enabled when no `--tools` is given. */
export const PI_TOOLS = ['read', 'bash', 'edit', 'write', 'grep', 'find', 'ls'] as const;
export const PI_DEFAULT_TOOLS = ['read', 'bash', 'edit', 'write'] as const;
