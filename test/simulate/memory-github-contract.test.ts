import { describeGitHubApi } from '../support/describe-github-api.ts';
import { memoryGitHubHarness } from '../support/memory-github-harness.ts';

describeGitHubApi('in-memory GitHub (agent-mux simulate)', memoryGitHubHarness);
