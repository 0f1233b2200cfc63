// The example agents' blueprints (examples/ in the repository) and sample model answers for the
// Test output panel, bundled into the page so it works offline.
import codeAnalyzer from '../../examples/code-analyzer/blueprint.json';
import prReviewer from '../../examples/pr-reviewer/blueprint.json';
import prValid from '../../examples/pr-reviewer/valid-output.json?raw';
import prInvalid from '../../examples/pr-reviewer/invalid-output.txt?raw';

export interface Blueprint {
  name: string;
  description: string;
  system_prompt: string;
  parameters_schema: object;
  output_schema: object;
}

export interface SampleAnswer {
  label: string;
  text: string;
}

const analyzerValid = `{
  "files_analyzed": 42,
  "issues": [
    { "file": "src/auth/session.rs", "severity": "high", "message": "Session token compared with == instead of a constant-time comparison" }
  ]
}`;

const analyzerInvalid = `{
  "files_analyzed": "42",
  "issues": [
    { "file": "src/auth/session.rs", "severity": "critical", "message": "Session token compared with == instead of a constant-time comparison" },
    { "file": "README.md", "severity": "low" }
  ]
}`;

const fenced = (intro: string, body: string, outro: string): string => `${intro}\n\n\`\`\`json\n${body.trim()}\n\`\`\`\n\n${outro}`;

export const blueprints: Record<string, { blueprint: Blueprint; samples: SampleAnswer[] }> = {
  'code-analyzer': {
    blueprint: codeAnalyzer,
    samples: [
      { label: 'Fenced valid answer', text: fenced('I analyzed the repository. Here is the report:', analyzerValid, 'Let me know if you want a deeper look at the auth module.') },
      { label: 'Invalid answer', text: analyzerInvalid },
      { label: 'Prose, then JSON with a trailing comma', text: `Sure! {"files_analyzed": 3, "issues": [],}` },
    ],
  },
  'pr-reviewer': {
    blueprint: prReviewer,
    samples: [
      { label: 'Fenced valid answer', text: fenced('Review complete.', prValid, 'Two comments, one of them a concern.') },
      { label: 'Invalid answer', text: prInvalid.trim() },
      { label: 'Prose, then JSON with a trailing comma', text: `My review: {"summary": "Small fix.", "approval": "approve", "comments": [],}` },
    ],
  },
};
