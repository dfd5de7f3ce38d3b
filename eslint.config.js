// Lint: typescript-eslint's recommended rules, and the rules that keep the layers apart
// (the architecture test checks the same from the import graph).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const NO_UI = {
  paths: ["ink", "react", "fullscreen-ink", "ink-select-input", "ink-testing-library"].map((name) => ({
    name,
    message: "src/ holds no UI: components/ draws.",
  })),
  patterns: [{ group: ["**/components/**"], message: "src/ never imports components/." }],
};
const NO_IO = ["fs", "node:fs", "fs/promises", "node:fs/promises", "child_process", "node:child_process"].map(
  (name) => ({ name, message: "The browser's state is pure: I/O belongs to an effect runner." }),
);

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      "fixtures/**",
      ".bench/**",
      "docs/**",
      "coverage/**",
      "**/*.mjs",
      "**/*.js",
    ],
  },
  { files: ["**/*.ts", "**/*.tsx"], extends: [js.configs.recommended, ...tseslint.configs.recommended] },
  {
    files: ["**/*.ts", "**/*.tsx"],
    rules: {
      // `_`-prefixed names are unused on purpose (a parameter kept for a signature).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // Matching control characters and escape sequences is this program's job (the
      // sanitizer, the key tokenizer, the tests that prove nothing raw gets through).
      "no-control-regex": "off",
      // The width rules match emoji modifiers and joiners on purpose (src/text/sanitize.ts).
      "no-misleading-character-class": "off",
    },
  },
  // Tests keep the last frame they waited for in one variable, read or not.
  { files: ["**/*.test.ts", "**/*.test.tsx"], rules: { "no-useless-assignment": "off" } },
  { files: ["src/**/*.ts"], ignores: ["**/*.test.ts"], rules: { "no-restricted-imports": ["error", NO_UI] } },
  // One writer for what a command prints (src/cli/common/output.ts): it sanitizes text as the
  // browser does and escapes JSON, so no command writes to the process or to its io itself.
  {
    files: ["src/cli/**/*.ts", "components/app/browseCommand.ts"],
    ignores: ["**/*.test.ts", "src/cli/common/output.ts", "src/cli/common/io.ts"],
    rules: {
      "no-console": "error",
      "no-restricted-properties": [
        "error",
        ...["stdout", "stderr", "stdoutBytes"].map((property) => ({
          property,
          message: "A command prints through src/cli/common/output.ts (output(io).text, .lines, .note, .json).",
        })),
      ],
    },
  },
  {
    files: [
      "src/browser/**/*Reducer.ts",
      "src/browser/**/*State.ts",
      "src/browser/core/**/*.ts",
      "src/browser/list/**/*.ts",
      "src/browser/app/appState.ts",
    ],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { ...NO_UI, paths: [...NO_UI.paths, ...NO_IO] }] },
  },
);
