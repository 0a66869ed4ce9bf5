import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorKind } from '../../shared/provider-error.ts';
import type { ClaudeTranslatorState } from './claude-state.ts';

/** What Claude Code and the Anthropic API say, beyond the words every provider shares. */
export const CLAUDE_ERRORS: ProviderErrorTable = {
  auth: { patterns: [/authentication_failed|permission_error|\/login/i] },
  authGuidance: 'Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or log in with `claude auth login`.',
};

/**
 * An API failure Claude Code reports (an `is_api_error_message` assistant record, a stream `error`
 * event or an error result), classified by its status, its error type (`authentication_error`,
 * `rate_limit`, …) and its words.
 */
export function apiError(
  state: ClaudeTranslatorState,
  message: string,
  status: number | undefined,
  errorType: string | undefined,
  subtype?: string,
): EventDraft[] {
  state.errorReported = true;
  const words = errorType === undefined ? message : `${errorType}: ${message}`;
  switch (providerErrorKind(words, CLAUDE_ERRORS, status)) {
    case 'auth':
      return [{ type: 'auth_error', message, guidance: CLAUDE_ERRORS.authGuidance }];
    case 'rate_limit':
    case 'overloaded':
      return [{ type: 'rate_limit_error', message }];
    case 'context': {
      const used = /(\d+)\s*tokens?\s*>\s*(\d+)/.exec(message);
      return [
        {
          type: 'context_exceeded',
          message,
          usedTokens: used ? Number(used[1]) : undefined,
          maxTokens: used ? Number(used[2]) : undefined,
        },
      ];
    }
    default: {
      const detail = subtype && subtype !== 'success' ? ` (${subtype})` : '';
      return [{ type: 'error', code: 'agent_error', message: `${message}${detail}`, recoverable: false }];
    }
  }
}
