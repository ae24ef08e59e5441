import type { ModelInfo, ModelProvider } from './ModelProvider';

/**
 * The models a controller can answer with, each mapped to its provider. The first provider
 * to offer an id wins; the default is the first model of the first provider after the echo
 * model, or the echo model when nothing else is configured.
 */
export class ModelRegistry {
  /** Every model, in provider order. */
  readonly list: readonly ModelInfo[];
  /** The model new data directories start with. */
  readonly defaultModel: string;
  private readonly byId = new Map<string, ModelProvider>();

  /** `providers[0]` is the fallback (the echo model). */
  constructor(providers: readonly [ModelProvider, ...ModelProvider[]]) {
    const list: ModelInfo[] = [];
    for (const provider of providers) {
      for (const model of provider.models) {
        if (this.byId.has(model.id)) continue;
        this.byId.set(model.id, provider);
        list.push(model);
      }
    }
    this.list = list;
    const [fallback, ...others] = providers;
    this.defaultModel =
      others.flatMap((p) => p.models).find((m) => this.byId.get(m.id) !== fallback)?.id ??
      fallback.models[0]?.id ??
      '';
  }

  has(modelId: string): boolean {
    return this.byId.has(modelId);
  }

  /** The provider of a model, or undefined for an unknown id. */
  providerOf(modelId: string): ModelProvider | undefined {
    return this.byId.get(modelId);
  }
}
