/**
 * What a model reviewer is sent for one chunk (docs/model.md): the chunk with
 * its new-file line numbers, the documents selected for it within the knowledge budget, and the
 * finding contract as a JSON Schema. Nothing else: no other file, no history, no author.
 * PROMPT_VERSION is part of every cached answer's key; change it with the wording.
 */
import { parseHunkHeader } from '../../diff/hunk-header.js';
import type { ReviewerInput } from '../program/reviewer.js';
import { RULE_NAME } from './rule-source.js';

export const PROMPT_VERSION = 1;

/** The finding a model submits: the contract's, with a kebab-case `rule` in place of id, side and rule_source. */
export function modelFindingSchema(finding: Record<string, unknown>): Record<string, unknown> {
  const properties = { ...(finding.properties as Record<string, unknown>) };
  delete properties.id;
  delete properties.side;
  delete properties.rule_source;
  properties.rule = {
    type: 'string',
    pattern: RULE_NAME.source,
    description: 'short kebab-case name of the rule the problem breaks',
  };
  const required = [...((finding.required as string[] | undefined) ?? []).filter((k) => k in properties), 'rule'];
  return { type: 'object', properties, required, additionalProperties: false };
}

export function answerSchema(finding: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    properties: { summary: { type: 'string' }, findings: { type: 'array', items: modelFindingSchema(finding) } },
    required: ['summary', 'findings'],
    additionalProperties: false,
  };
}

/** The diff with each added and context line prefixed by its new-file line number. */
export function numberedDiff(diff: string): string {
  const out: string[] = [];
  let next = 0;
  for (const line of diff.split('\n')) {
    const header = parseHunkHeader(line);
    if (header) {
      next = header.newStart;
      out.push(line);
    } else if (next > 0 && (line.startsWith('+') || line.startsWith(' '))) {
      out.push(`${String(next).padStart(5)} ${line}`);
      next++;
    } else if (next > 0 && line.startsWith('-')) out.push(`      ${line}`);
    else out.push(line);
  }
  return out.join('\n');
}

const SYSTEM = [
  "You are a code reviewer. You review one chunk of a diff against the team's design documents given below.",
  'Report only real problems on added lines (those starting with "+"); each line shows its new-file line number on the left.',
  'Answer with one JSON object that matches the given JSON Schema, and nothing else.',
  'For each finding: "path" is the chunk\'s path; "line" and "start_line" are new-file line numbers of added lines;',
  '"citations" lists the ids of the documents the problem goes against (only ids from the allowed list; required for category "architecture");',
  '"rule" is a short kebab-case name for the rule the problem breaks, the same name each time the same rule is broken;',
  '"confidence" is between 0 and 1. No findings: an empty list.',
].join('\n');

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export function chatMessages(input: ReviewerInput, schema: Record<string, unknown>, previous?: string): ChatMessage[] {
  const documents = input.knowledge.length
    ? input.knowledge.map((d) => `### ${d.id}: ${d.title}\n${d.body}`).join('\n\n')
    : '(no document governs this file)';
  const messages: ChatMessage[] = [
    { role: 'system', content: `${SYSTEM}\n\nJSON Schema of the answer:\n${JSON.stringify(schema)}` },
    {
      role: 'user',
      content:
        `Design documents (allowed citations: ${input.allowed_citations.length ? input.allowed_citations.join(', ') : 'none'}):\n\n${documents}\n\n` +
        `Chunk: ${input.chunk.path}${input.chunk.language ? ` (${input.chunk.language})` : ''}\n\`\`\`diff\n${numberedDiff(input.chunk.diff)}\n\`\`\``,
    },
  ];
  if (input.errors?.length && previous !== undefined) {
    messages.push({ role: 'assistant', content: previous });
    messages.push({
      role: 'user',
      content:
        'Some findings of your answer break the contract:\n' +
        input.errors.map((e) => `- finding ${e.finding}: ${e.message}`).join('\n') +
        `\nAllowed citations: ${input.allowed_citations.join(', ') || 'none'}. Answer again with the whole corrected JSON object.`,
    });
  }
  return messages;
}
