import type { ModelProvider } from './ModelProvider';
import { OpenAiCompatibleModel } from './OpenAiCompatibleModel';
import { listOpenAiModels } from './openai/listOpenAiModels';

/** How to reach an OpenAI-compatible endpoint (from `--openai-*` flags and the environment). */
export interface OpenAiConfig {
  /** The API root, e.g. `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string;
  /** Never logged. Undefined: send no Authorization header (Ollama, llama.cpp). */
  readonly apiKey: string | undefined;
  /** Models to offer; empty: discover them with GET {baseUrl}/models. */
  readonly models: readonly string[];
  /** Longest silence of a streaming request. @default 120000 */
  readonly timeoutMs?: number | undefined;
}

/** The model configuration of a host: the echo model is always added by the controller. */
export interface ModelConfig {
  readonly openai?: OpenAiConfig | undefined;
}

/**
 * Builds the configured providers. An endpoint whose models cannot be discovered is reported
 * through `warn` and left out, so a host whose model server is down still starts (with the echo
 * model) instead of failing.
 */
export async function createModelProviders(
  config: ModelConfig,
  warn: (message: string) => void = () => undefined,
): Promise<ModelProvider[]> {
  const { openai } = config;
  if (!openai) return [];
  let models = [...openai.models];
  if (models.length === 0) {
    try {
      models = await listOpenAiModels(openai.baseUrl, openai.apiKey);
    } catch (error) {
      warn(
        `Could not list the models of ${openai.baseUrl}: ${error instanceof Error ? error.message : String(error)} Name them with --model.`,
      );
      return [];
    }
    if (models.length === 0) {
      warn(`${openai.baseUrl} lists no models; name them with --model.`);
      return [];
    }
  }
  return [
    new OpenAiCompatibleModel({
      baseUrl: openai.baseUrl,
      apiKey: openai.apiKey,
      models,
      ...(openai.timeoutMs === undefined ? {} : { timeoutMs: openai.timeoutMs }),
    }),
  ];
}
