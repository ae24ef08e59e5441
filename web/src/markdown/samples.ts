/**
 * Markdown that replies contain, for tests and the benchmark: every construct the page
 * renders, in the order a model might write them.
 */
export const SAMPLE = `# Heading one

A paragraph with **bold**, *italic*, ~~struck~~, \`code\`, a [link](https://example.test/a_(b)) and
a bare https://example.test/path. See the note[^1] and www.example.test too.

- item one
- item two
  - nested item
  - nested two
- [ ] a task
- [x] done task

1. first
2. second

   continued paragraph of the second item

| Name | Value | Note |
|:-----|------:|:----:|
| a | 1 | x |
| b | 2 | y |

> quoted *text*
> on two lines

\`\`\`python
def f(x):
    return x ** 2
\`\`\`

Inline math $E = mc^2$ costs $5 and $10, and display math:

$$
\\int_0^1 x^2 \\, dx = \\frac{1}{3}
$$

---

    indented code

Term with a [ref link][r] and <b>html</b>.

[r]: https://example.test/ref
[^1]: The footnote's text, with *emphasis*.
`;

/** About `words` words of varied markdown: paragraphs, lists, code and headings in turn. */
export function longMarkdown(words: number): string {
  const parts: string[] = [];
  let count = 0;
  for (let i = 0; count < words; i++) {
    let part: string;
    switch (i % 4) {
      case 0:
        part = `## Section ${i}\n\nThis paragraph explains **step ${i}** of the plan with some *emphasis*, a \`value_${i}\` and a link to https://example.test/${i} so that the text looks like a real answer from a model.`;
        break;
      case 1:
        part = `- the first point about ${i}\n- the second point, with **bold** words\n- a third point that is a little longer than the others`;
        break;
      case 2:
        part = `\`\`\`ts\nconst value${i} = compute(${i});\nconsole.log(value${i});\n\`\`\``;
        break;
      default:
        part = `Another paragraph follows with more words so that the message grows steadily, number ${i}, and it ends here.`;
    }
    parts.push(part);
    count += part.split(/\s+/).length;
  }
  return parts.join('\n\n');
}
