export { WORLD_TOPICS, topicOf, worldTask, type WorldTopic } from './fixture-world.js';
export { startFixtureWorld, type FixtureWorldServer } from './fixture-world-server.js';
export { DEMO_SKILL, runLifecycleDemo, type DemoReport, type DemoRow } from './lifecycle-demo.js';
export { runToolboxDemo, toolboxDemoTask, toolboxDemoTopics, type ToolboxDemoReport, type ToolboxDemoRow } from './toolbox-demo.js';
export { fixtureWorldEnvironment } from './demo-environment.js';
