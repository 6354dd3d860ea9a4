import type { AnyEventBody, UtilityModel } from '../core/index.js';
import type { CostMeter } from './cost-meter.js';
import { hashModelInput } from './input-hash.js';
import type { ResolvedModel } from './resolve-model.js';

/**
 * A small, metered model for bounded auxiliary tasks (translation, rescue choices). Each call passes
 * the meter's pre-call checks first, then is recorded by the meter and announced as a `model-call`
 * event with iteration 0 (outside the loop).
 */
export function createUtilityModel(resolved: ResolvedModel, meter: CostMeter, emit: (body: AnyEventBody) => void): UtilityModel {
  return {
    slug: resolved.slug,
    async complete({ system, prompt, maxOutputTokens, purpose, signal }) {
      await meter.admit({ model: resolved.slug, purpose });
      const started = performance.now();
      const inputHash = hashModelInput({ system: system ?? '', tools: [], messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }] });
      // The AI SDK's core (with its telemetry and gateway) is loaded on the first utility call, not with the runtime.
      const { generateText } = await import('ai');
      const result = await generateText({
        model: resolved.model,
        ...(system === undefined ? {} : { system }),
        prompt,
        maxOutputTokens,
        maxRetries: 1,
        ...(signal === undefined ? {} : { abortSignal: signal }),
      });
      const record = meter.record({
        model: resolved.slug,
        purpose,
        inputTokens: result.usage.inputTokens ?? 0,
        outputTokens: result.usage.outputTokens ?? 0,
        latencyMs: performance.now() - started,
        inputHash,
      });
      emit({
        type: 'model-call',
        model: record.model,
        iteration: 0,
        purpose,
        tokens: { input: record.inputTokens, output: record.outputTokens },
        cost_usd: record.costUsd,
        latency_ms: record.latencyMs,
        input_hash: inputHash,
        finish_reason: result.finishReason,
        tool_calls: 0,
      });
      return result.text;
    },
  };
}
