import { describeGitHubApi } from '../describe-github-api.ts';
import { fakeGitHubHarness } from '../fake-github-harness.ts';

describeGitHubApi('HTTP fake GitHub through createGitHubApi', fakeGitHubHarness);
