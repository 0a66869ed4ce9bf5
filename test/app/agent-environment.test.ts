import { describe, expect, it } from 'vitest';
import { agentEnvironment } from '../../src/app/agent-environment.ts';

describe('agentEnvironment', () => {
  it('drops the app’s credentials and names the secret variables', () => {
    const { env, secretEnv } = agentEnvironment({
      PATH: '/usr/bin',
      PRIVATE_KEY: '-----BEGIN',
      PRIVATE_KEY_PATH: '/key.pem',
      WEBHOOK_SECRET: 'hooks',
      DATABASE_URL: 'postgres://x',
      ANTHROPIC_API_KEY: 'sk-ant-0123456789',
      OPENAI_API_KEY: 'short',
      HOME: '/home/app',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      ANTHROPIC_API_KEY: 'sk-ant-0123456789',
      OPENAI_API_KEY: 'short',
      HOME: '/home/app',
    });
    expect(secretEnv).toEqual(['ANTHROPIC_API_KEY']);
  });
});
