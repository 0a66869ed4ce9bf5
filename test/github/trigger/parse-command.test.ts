import { describe, expect, it } from 'vitest';
import { type Command, parseCommand } from '../../../src/github/trigger/parse-command.ts';

const agents = ['codex', 'gemini', 'claude-code', 'fix'];

describe('parseCommand', () => {
  const rows: [name: string, text: string, expected: Command | undefined][] = [
    ['plain', '@agent fix the bug', { kind: 'run', prompt: 'fix the bug' }],
    ['phrase only', '@agent', { kind: 'run', prompt: '' }],
    ['phrase only with punctuation', '@agent!', { kind: 'run', prompt: '' }],
    ['no phrase', 'please fix the bug', undefined],
    ['empty text', '', undefined],
    ['agent colon form', '@agent codex: fix it', { kind: 'run', agent: 'codex', prompt: 'fix it' }],
    ['agent colon with space', '@agent gemini : add tests', { kind: 'run', agent: 'gemini', prompt: 'add tests' }],
    ['agent name with dash', '@agent claude-code: refactor', { kind: 'run', agent: 'claude-code', prompt: 'refactor' }],
    ['agent name case folded', '@agent CODEX: go', { kind: 'run', agent: 'codex', prompt: 'go' }],
    ['agent without colon is prose', '@agent codex fix it', { kind: 'run', prompt: 'codex fix it' }],
    ['agent named like a verb, no colon', '@agent fix the bug', { kind: 'run', prompt: 'fix the bug' }],
    ['agent named like a verb, with colon', '@agent fix: the bug', { kind: 'run', agent: 'fix', prompt: 'the bug' }],
    ['use X to', '@agent use gemini to fix the parser', { kind: 'run', agent: 'gemini', prompt: 'fix the parser' }],
    ['using X to', '@agent using codex to write docs', { kind: 'run', agent: 'codex', prompt: 'write docs' }],
    ['use X colon', '@agent use codex: write docs', { kind: 'run', agent: 'codex', prompt: 'write docs' }],
    ['use X alone', '@agent use codex', { kind: 'run', agent: 'codex', prompt: '' }],
    ['with X colon', '@agent with gemini: explain', { kind: 'run', agent: 'gemini', prompt: 'explain' }],
    ['use X tomorrow is prose', '@agent use codex tomorrow', { kind: 'run', prompt: 'use codex tomorrow' }],
    ['unknown agent colon', '@agent cursor: fix it', { kind: 'run', prompt: 'cursor: fix it' }],
    ['unknown agent use-to', '@agent use the logger to debug', { kind: 'run', prompt: 'use the logger to debug' }],
    ['agent prefix of a longer word', '@agent codexes: hi', { kind: 'run', prompt: 'codexes: hi' }],
    ['upper-case phrase', '@AGENT Fix It', { kind: 'run', prompt: 'Fix It' }],
    ['comma after phrase', '@agent, please add a test', { kind: 'run', prompt: 'please add a test' }],
    ['colon after phrase', '@agent: please add a test', { kind: 'run', prompt: 'please add a test' }],
    ['dash after phrase', '@agent - add a test', { kind: 'run', prompt: 'add a test' }],
    ['phrase in parentheses', 'Could you (@agent) look?', { kind: 'run', prompt: 'look?' }],
    ['phrase mid-sentence', 'Hey @agent can you fix this?', { kind: 'run', prompt: 'can you fix this?' }],
    ['phrase on a later line', 'Context first.\n\n@agent fix it', { kind: 'run', prompt: 'fix it' }],
    [
      'multi-line prompt keeps code',
      '@agent fix this error:\n```\nTypeError: x\n```\nthanks',
      { kind: 'run', prompt: 'fix this error:\n```\nTypeError: x\n```\nthanks' },
    ],
    ['list after phrase keeps its marker', '@agent\n- a\n- b', { kind: 'run', prompt: '- a\n- b' }],
    ['in a backtick fence', '```\n@agent fix it\n```', undefined],
    ['in a tilde fence', '~~~md\n@agent fix it\n~~~', undefined],
    ['in an unterminated fence', 'see\n```\n@agent fix it', undefined],
    ['in a longer fence closed by a short one', '````\n```\n@agent fix it\n````', undefined],
    ['after a fence', '```\ncode\n```\n@agent fix it', { kind: 'run', prompt: 'fix it' }],
    ['in an indented fence in a list', '- step\n  ```\n  @agent fix\n  ```', undefined],
    ['in inline code', 'type `@agent fix` to start', undefined],
    ['in double-backtick inline code', 'type ``@agent ` fix`` to start', undefined],
    ['unmatched backtick is literal', 'a ` b @agent go', { kind: 'run', prompt: 'go' }],
    ['in a quote', '> @agent fix it\n\nno thanks', undefined],
    ['in a nested quote', '> > @agent fix it\n> I agree', undefined],
    ['in a quote inside a list', '- > @agent fix it', undefined],
    ['reply below a quote', '> @agent old\n\n@agent new request', { kind: 'run', prompt: 'new request' }],
    ['in an HTML comment', '<!-- @agent fix it -->visible', undefined],
    ['in a multi-line HTML comment', '<!--\n@agent fix it\n-->', undefined],
    ['in an unterminated HTML comment', 'hi <!-- @agent fix it', undefined],
    ['after an empty comment', 'x <!-->@agent go', { kind: 'run', prompt: 'go' }],
    ['after an empty comment that opens an HTML block', '<!-->@agent go', undefined],
    ['@agents', '@agents fix it', undefined],
    ['x@agent', 'x@agent fix it', undefined],
    ['@agent-bot', '@agent-bot fix it', undefined],
    ['email-like', 'mail me@agent.com please', undefined],
    ['@agent.com alone', 'see @agent.com', undefined],
    ['sentence end after phrase', 'Thanks @agent.', { kind: 'run', prompt: '' }],
    ['cancel', '@agent cancel', { kind: 'cancel' }],
    ['cancel with punctuation', '@agent, Cancel!', { kind: 'cancel' }],
    ['cancel with trailing newline', '@agent cancel.\r\n', { kind: 'cancel' }],
    ['cancel as part of a prompt', '@agent cancel the flaky test', { kind: 'run', prompt: 'cancel the flaky test' }],
    ['new conversation', '@agent new: start over', { kind: 'run', prompt: 'start over', fresh: true }],
    [
      'new conversation with an agent',
      '@agent New: codex: go',
      { kind: 'run', agent: 'codex', prompt: 'go', fresh: true },
    ],
    ['new alone', '@agent new', { kind: 'run', prompt: '', fresh: true }],
    ['new as part of a prompt', '@agent new tests please', { kind: 'run', prompt: 'new tests please' }],
    ['approve', '/approve abc-123_X', { kind: 'approve', approvalId: 'abc-123_X' }],
    ['approve upper case, later line', 'Looks fine.\n/Approve a1', { kind: 'approve', approvalId: 'a1' }],
    ['approve with trailing dot', '/approve a1.', { kind: 'approve', approvalId: 'a1' }],
    ['approve not at line start', 'please /approve a1', undefined],
    ['approve in code', '```\n/approve a1\n```', undefined],
    ['approve in a quote', '> /approve a1', undefined],
    ['approve without id', '/approve', undefined],
    ['approve with invalid id', '/approve a$b', undefined],
    ['deny', '/deny a1', { kind: 'deny', approvalId: 'a1' }],
    ['deny with reason', '/deny a1 too risky', { kind: 'deny', approvalId: 'a1', reason: 'too risky' }],
    [
      'deny with colon and multi-line reason',
      '/deny a1: no\nuse a branch',
      { kind: 'deny', approvalId: 'a1', reason: 'no\nuse a branch' },
    ],
    ['deny wins over the phrase', '/deny a1 @agent do X', { kind: 'deny', approvalId: 'a1', reason: '@agent do X' }],
    [
      'CRLF line endings',
      '@agent codex: line one\r\nline two\r\n',
      { kind: 'run', agent: 'codex', prompt: 'line one\nline two' },
    ],
    ['CRLF fence', '```\r\n@agent x\r\n```\r\n', undefined],
    ['CRLF deny', 'hm\r\n/deny a1 nope\r\n', { kind: 'deny', approvalId: 'a1', reason: 'nope' }],
  ];

  it.each(rows)('%s', (_name, text, expected) => {
    expect(parseCommand(text, { agents })).toEqual(expected);
  });

  it.each([
    ['/bot please run', '/bot', { kind: 'run', prompt: 'please run' }],
    ['hey claude do it', 'hey claude', { kind: 'run', prompt: 'do it' }],
    ['hey claudette do it', 'hey claude', undefined],
    ['@Robot-1 go', '@robot-1', { kind: 'run', prompt: 'go' }],
  ] as const)('custom phrase: %s', (text, phrase, expected) => {
    expect(parseCommand(text, { phrase, agents: [] })).toEqual(expected);
  });

  it('takes the first occurrence outside quotes', () => {
    // A blank line ends the quote; without it `@agent b` would be a lazy continuation line of the quote.
    expect(parseCommand('> @agent a\n\n@agent b @agent c', { agents })).toEqual({ kind: 'run', prompt: 'b @agent c' });
  });

  it('defaults the phrase to @agent and works without agents', () => {
    expect(parseCommand('@agent codex: go', { agents: [] })).toEqual({ kind: 'run', prompt: 'codex: go' });
  });

  it('reads the same whether or not the text is parsed as Markdown first (the shortcut for text with no command)', () => {
    // Without the phrase's words or a decision's anywhere, nothing is parsed.
    expect(parseCommand('Thanks, this looks good to me.', { agents })).toBeUndefined();
    expect(parseCommand('agent, please look', { agents })).toBeUndefined();
    // A word of the phrase in another case, or a decision in capitals, still counts.
    expect(parseCommand('@AGENT fix it', { agents })).toEqual({ kind: 'run', prompt: 'fix it' });
    expect(parseCommand('/APPROVE ab12', { agents })).toEqual({ kind: 'approve', approvalId: 'ab12' });
    // Blanked code before the phrase: the phrase is read in the rendered text as before.
    expect(parseCommand('`x`@agent fix it', { agents })).toEqual({ kind: 'run', prompt: 'fix it' });
    // A phrase of two words: each must stand in the text; spaces may come from blanked code.
    expect(parseCommand('hey there bot, fix it', { phrase: 'hey bot', agents })).toBeUndefined();
    expect(parseCommand('hey bot fix it', { phrase: 'hey bot', agents })).toEqual({ kind: 'run', prompt: 'fix it' });
    expect(parseCommand('anything at all', { phrase: '  ', agents })).toBeUndefined();
  });
});

describe('look-alike triggers (issue 32.18): what a reader sees is not a mention', () => {
  const parse = (text: string) => parseCommand(text, { agents: ['claude'] });
  it.each([
    ['a zero-width joiner after it (shows @agentsmith)', '@agent\u200dsmith fix it'],
    ['a word joiner after it', '@agent\u2060smith fix it'],
    ['a zero-width non-joiner after it', '@agent\u200csmith fix it'],
    ['a combining mark after it', '@agent\u0301smith fix it'],
    ['a zero-width space before it (shows mail@agent)', 'mail\u200b@agent fix it'],
    ['a soft hyphen before it', 'x\u00ad@agent fix it'],
    ['a right-to-left override before it', '\u202e@agent fix it'],
    ['a right-to-left override in the request', '@agent fix it \u202eesrever'],
    ['a left-to-right isolate around it', '\u2066@agent\u2069 fix it'],
  ])('%s: no command', (_, text) => {
    expect(parse(text)).toBeUndefined();
  });

  it('plain mentions still trigger, with punctuation and emoji around them', () => {
    expect(parse('@agent fix it')).toEqual({ kind: 'run', prompt: 'fix it' });
    expect(parse('Hi! @agent, fix it 🙂')).toEqual({ kind: 'run', prompt: 'fix it 🙂' });
    expect(parse('👍 @agent fix it')).toEqual({ kind: 'run', prompt: 'fix it' });
  });
});
