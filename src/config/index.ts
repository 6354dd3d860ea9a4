export { CONFIG_FILE_NAME, readConfigFile, writeConfigFile } from './config-file.js';
export { ConfigFileError } from './config-file-error.js';
export { CONFIG_FILE_VERSION, CONFIG_KEYS, CONFIG_SETTINGS, configFileSchema, type ConfigFile, type ConfigKey } from './config-settings.js';
export { configFileFor, getSetting, listSettings, maskedValue, parseConfigKey, setSettings, unsetSetting, type ConfigTarget, type ShownSetting } from './config-service.js';
export { resolveForgeHome, userHomeFolder, type Environment, type ForgeHome, type HomeSource } from './forge-home.js';
export { resolveLayeredSettings, type LayeredSettings, type SettingEntry, type SettingSource } from './layered-settings.js';
