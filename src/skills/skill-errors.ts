import { ForgeError } from '../core/index.js';

/** A skill document that cannot be read: malformed, from a newer Forge, or not a skill at all. */
export class SkillFormatError extends ForgeError {
  /** Where in the document the problem is (`steps[1].arguments`), or `(document)`. */
  readonly location: string;
  constructor(location: string, message: string, hint?: string) {
    super({
      name: 'SkillFormatError',
      message: `Not a readable skill document (${location}): ${message}`,
      hint: hint ?? 'Export skills with `forge skill export` and import the file unchanged; re-record the skill if the file was edited by hand.',
    });
    this.location = location;
  }
}

/** Bad `--input` for a skill: a missing required variable, a value of the wrong type, or an unknown name. */
export class SkillInputError extends ForgeError {
  readonly variable: string;
  constructor(variable: string, message: string, hint: string) {
    super({ name: 'SkillInputError', message: `Input "${variable}": ${message}`, hint });
    this.variable = variable;
  }
}

/** The skill no longer fits the world it was recorded in; it is marked stale and must be re-recorded. */
export class SkillStaleError extends ForgeError {
  readonly skill: string;
  readonly reason: string;
  constructor(skill: string, reason: string) {
    super({
      name: 'SkillStaleError',
      message: `Skill "${skill}" is stale: ${reason}`,
      hint: 'Run the task again with `forge run` and save the new run with `forge skill save <run-id> --name <skill>` to re-record it.',
    });
    this.skill = skill;
    this.reason = reason;
  }
}

/** A run cannot become a skill (it failed, or it called no tool). */
export class SkillRecordingError extends ForgeError {
  readonly runId: string;
  constructor(runId: string, message: string, hint: string) {
    super({ name: 'SkillRecordingError', message: `Run ${runId} cannot be saved as a skill: ${message}`, hint });
    this.runId = runId;
  }
}

/** The requested replay mode cannot run this skill with these inputs. */
export class SkillModeError extends ForgeError {
  readonly values: readonly string[];
  constructor(message: string, values: readonly string[], hint: string) {
    super({ name: 'SkillModeError', message, hint });
    this.values = values;
  }
}

/** A value a step needs could not be resolved from the fresh results (e.g. a search returned nothing). */
export class SkillResolutionError extends ForgeError {
  readonly skill: string;
  readonly value: string;
  constructor(skill: string, value: string, reason: string) {
    super({
      name: 'SkillResolutionError',
      message: `Skill "${skill}" could not resolve ${value}: ${reason}`,
      hint: `Supply it yourself with --input ${value}=<value>, or run the task with the full agent (forge run).`,
    });
    this.skill = skill;
    this.value = value;
  }
}

/**
 * A replay stopped before a step that writes because it could not prove what it would send: an
 * argument that is a recorded constant or a recorded fallback, a value it could not resolve, or a state
 * the recording relied on that the fresh results no longer show. Nothing was written by that step (a
 * safe failure); the replay's `writes` lists what earlier steps wrote.
 */
export class SkillRefusedError extends ForgeError {
  readonly skill: string;
  /** The step that would have written; null when the replay refused before any step (an input the task did not say). */
  readonly step: number | null;
  readonly tool: string | null;
  /** One line per argument or precondition that failed, naming it and why. */
  readonly reasons: readonly string[];
  constructor(skill: string, step: number | null, tool: string | null, reasons: readonly string[], hint: string) {
    const where = step === null ? 'before running anything' : `before step ${step} (${tool}) could write`;
    super({ name: 'SkillRefusedError', message: `Skill "${skill}" refused ${where}: ${reasons.join('; ')}`, hint });
    this.skill = skill;
    this.step = step;
    this.tool = tool;
    this.reasons = reasons;
  }
}

/** A save that would repeat what is stored: the run is already a skill, or the name is taken. Nothing was stored. */
export class SkillConflictError extends ForgeError {
  readonly skill: string;
  constructor(skill: string, message: string, hint: string) {
    super({ name: 'SkillConflictError', message: `${message} Nothing was stored.`, hint });
    this.skill = skill;
  }
}

/** A stored skill whose document no longer reads (hand-edited, or from another Forge); it can still be listed, shown raw and removed. */
export class BrokenSkillError extends ForgeError {
  readonly skill: string;
  readonly problem: string;
  constructor(skill: string, problem: string) {
    super({
      name: 'BrokenSkillError',
      message: `Stored skill "${skill}" cannot be read: ${problem}`,
      hint: `See what is stored with \`forge skill show ${skill} --raw\`, and remove it with \`forge skill remove ${skill}\` (then save or import it again).`,
    });
    this.skill = skill;
    this.problem = problem;
  }
}
