import { formatZodIssues } from '../../core/tools/format-zod-issues.ts';
import { type Finding, findingSchema } from './finding.ts';

/**
 * The findings of an agent that cannot call `report_finding` (no MCP): the last fenced ```json
 * block of its final answer, holding `{"findings": [...]}` or the array itself. Each entry is
 * checked like the tool's input; the ones that fail are named in `problems`, the rest kept.
 */
export function findingsFromMessage(message: string): { findings: Finding[]; problems: string[] } {
  const blocks = [...message.matchAll(/```(?:json)?[ \t]*\n([\s\S]*?)\n[ \t]*```/g)].map((match) => match[1] ?? '');
  for (const block of blocks.reverse()) {
    let value: unknown;
    try {
      value = JSON.parse(block);
    } catch {
      continue;
    }
    const list = Array.isArray(value) ? value : isFindingList(value) ? value.findings : undefined;
    if (list === undefined) continue;
    const findings: Finding[] = [];
    const problems: string[] = [];
    list.forEach((entry, index) => {
      const parsed = findingSchema.safeParse(entry);
      if (parsed.success) findings.push(parsed.data);
      else problems.push(`finding ${index + 1}: ${formatZodIssues(parsed.error.issues)}`);
    });
    return { findings, problems };
  }
  return { findings: [], problems: [] };
}

function isFindingList(value: unknown): value is { findings: unknown[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { findings?: unknown }).findings);
}
