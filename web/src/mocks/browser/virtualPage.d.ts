// The page's entry (src/main.tsx), resolved by the mock plugin (src/mocks/mockModePlugin.ts).
declare module 'virtual:webbridge-page' {}
