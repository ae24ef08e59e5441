/** Names that end like a credential: `OPENAI_API_KEY`, `GITHUB_TOKEN`, `AWS_SECRET`, `DB_PASSWORD`. */
const ENDS_LIKE_SECRET = /(^|_)(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$/;
/** Names that hold a credential wherever the word is: `NPM_CONFIG__AUTHTOKEN`, `MY_SECRET_FILE`. */
const CONTAINS_SECRET = /SECRET|TOKEN|PASSWORD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY/;

/** Whether an environment variable name looks like it holds a credential. */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return ENDS_LIKE_SECRET.test(upper) || CONTAINS_SECRET.test(upper);
}

/**
 * The host's environment without its credentials, for commands a model runs. The host holds
 * the model's API key (`OPENAI_API_KEY` or the variable named by `--openai-api-key-env`); a
 * command must not be able to print it into the conversation, where the model would read it.
 *
 * @example
 * ```ts
 * commandEnv({ PATH: '/usr/bin', OPENAI_API_KEY: 'sk-…' }); // { PATH: '/usr/bin' }
 * ```
 */
export function commandEnv(env: Readonly<NodeJS.ProcessEnv> = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !isSecretName(name)) out[name] = value;
  }
  return out;
}
