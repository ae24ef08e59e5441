/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** `off` runs `vite` against a real host (proxy) instead of the MSW mocks. */
  readonly VITE_MOCKS?: string;
}
