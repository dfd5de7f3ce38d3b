// React's act() needs this flag to flush effects deterministically in tests.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// ink treats any CI value as "render only the last frame"; tests want every frame.
delete process.env.CI;
