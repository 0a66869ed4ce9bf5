export {
  builtinRepositoryReads,
  type RepositoryReader,
  resetPathMatcher,
  resetPathsFor,
} from './adapter-reset-paths.ts';
export { agentConfigPaths, isAgentConfigPath } from './agent-config-paths.ts';
export { branchName, maxSlugLength, slugify } from './branch-name.ts';
export { BranchNameError } from './branch-name-error.ts';
export { type ChangedFile, type CollectChangesOptions, collectChanges } from './collect-changes.ts';
export { findSecretsInChanges } from './find-secrets-in-changes.ts';
export { authConfig, authEnv, type GitResult, type RunGitOptions, redactToken, runGit, spawnGit } from './git.ts';
export { GitDirTamperedError } from './git-dir-tampered-error.ts';
export { GitError } from './git-error.ts';
export { hardenedConfigArgs, hardenedEnv } from './hardened-git.ts';
export { HeadMovedError } from './head-moved-error.ts';
export { instructionImports } from './instruction-imports.ts';
export { isValidBranchName } from './is-valid-branch-name.ts';
export { openRepository, pinRepository, type Repository } from './open-repository.ts';
export {
  type PreparedWorkspace,
  type PrepareWorkspaceInput,
  prepareWorkspace,
  type WorkspaceTarget,
} from './prepare-workspace.ts';
export { type PublishChangesInput, type PublishResult, publishChanges } from './publish-changes.ts';
export { PushRejectedError } from './push-rejected-error.ts';
export { removePersistedCredentials } from './remove-persisted-credentials.ts';
export { type BaseEntry, restoreFromBase } from './restore-from-base.ts';
export { sanitizeGitConfig } from './sanitize-git-config.ts';
export { SecretInChangesError } from './secret-in-changes-error.ts';
export { stageChanges } from './stage-changes.ts';
