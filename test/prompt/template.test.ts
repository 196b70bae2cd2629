// The prompt registry's template language: what it renders, what it refuses when a template is
// stored (syntax, with line and column) and when it is rendered (a missing variable, named).
import { MAX_NESTING, parseTemplate, renderTemplate, TemplateError } from '../../src/prompt/template.js';

type Vars = Parameters<typeof renderTemplate>[1];
const render = (source: string, variables: Vars = {}, maxChars?: number) =>
  renderTemplate(parseTemplate(source), variables, { maxChars });
const failure = (fn: () => unknown): TemplateError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
  throw new Error('expected a TemplateError');
};

describe('variables', () => {
  test('strings as they are, other JSON as JSON, dotted paths through objects and arrays', () => {
    expect(render('Hi {{ name }}!', { name: 'Tom' })).toBe('Hi Tom!');
    expect(render('{{n}} {{b}} {{o}} {{a}}', { n: 9.5, b: false, o: { x: [1] }, a: ['p', 'q'] })).toBe(
      '9.5 false {"x":[1]} ["p","q"]',
    );
    expect(
      render('{{ c.address.city }} / {{ items.1 }} / {{ items.0.k }}', {
        c: { address: { city: 'Oslo' } },
        items: [{ k: 'v' }, 'two'],
      }),
    ).toBe('Oslo / two / v');
  });

  test('a missing or null variable is an error naming it and where it is used', () => {
    const e = failure(() => render('Hello\n  {{ customer.name }}', { customer: {} }));
    expect(e).toMatchObject({ code: 'missing-variable', variable: 'customer.name' });
    expect(e.message).toBe("'customer.name' is missing (used at line 2, column 3)");
    expect(failure(() => render('{{ x }}', { x: null })).message).toBe("'x' is null (used at line 1, column 1)");
    expect(failure(() => render('{{ items.2 }}', { items: [1] })).variable).toBe('items.2');
  });

  test('nothing but own properties is reachable: no prototype, constructor or global', () => {
    for (const source of [
      '{{ constructor }}',
      '{{ x.constructor }}',
      '{{ x.__proto__ }}',
      '{{ x.toString }}',
      '{{ items.length }}',
      '{{ s.length }}',
    ]) {
      expect(failure(() => render(source, { x: {}, items: [1], s: 'abc' })).code).toBe('missing-variable');
    }
    expect(render('{{ x.constructor }}', { x: { constructor: 'mine' } })).toBe('mine');
    // Template text is never evaluated: what looks like code is a syntax error or text.
    expect(failure(() => parseTemplate('{{ process.exit() }}')).code).toBe('syntax');
    expect(failure(() => parseTemplate("{{ x['y'] }}")).code).toBe('syntax');
    expect(render('${1+1} `x` {{ a }}', { a: '{{ b }}' })).toBe('${1+1} `x` {{ b }}'); // a value is not rendered again
  });
});

describe('conditionals and loops', () => {
  test('if / elif / else / not, with JSON truthiness (missing is false, not an error)', () => {
    const t = parseTemplate('{% if vip %}VIP{% elif not known %}new{% else %}known{% endif %}');
    expect(renderTemplate(t, { vip: true })).toBe('VIP');
    expect(renderTemplate(t, {})).toBe('new');
    expect(renderTemplate(t, { known: 1 })).toBe('known');
    for (const falsy of [false, null, '', 0, [], {}])
      expect(render('{% if x %}y{% else %}n{% endif %}', { x: falsy })).toBe('n');
    for (const truthy of [true, 'a', 1, [0], { a: 0 }])
      expect(render('{% if x %}y{% else %}n{% endif %}', { x: truthy })).toBe('y');
  });

  test('for over an array, with loop.index, loop.first, loop.last, nested and shadowing', () => {
    expect(
      render('{% for d in docs %}{{ loop.index }}. {{ d.title }}{% if not loop.last %}, {% endif %}{% endfor %}', {
        docs: [{ title: 'a' }, { title: 'b' }],
      }),
    ).toBe('1. a, 2. b');
    expect(
      render('{% for r in rows %}[{% for c in r %}{{ c }}{% endfor %}]{% endfor %}', { rows: [[1, 2], [3]] }),
    ).toBe('[12][3]');
    expect(render('{{ x }}{% for x in xs %}{{ x }}{% endfor %}{{ x }}', { x: 'o', xs: ['i'] })).toBe('oio');
    expect(render('{% for x in xs %}never{% endfor %}done', { xs: [] })).toBe('done');
  });

  test('a loop over something that is not an array, or over nothing, names it', () => {
    const e = failure(() => render('{% for i in items %}{% endfor %}', { items: { a: 1 } }));
    expect(e).toMatchObject({ code: 'not-a-list', variable: 'items' });
    expect(e.message).toBe("'items' must be an array to loop over (is an object; {% for %} at line 1, column 1)");
    expect(failure(() => render('{% for i in items %}{% endfor %}', {}))).toMatchObject({
      code: 'missing-variable',
      variable: 'items',
    });
  });
});

describe('layout', () => {
  test('a block tag alone on its line leaves no line; inline tags keep the text around them', () => {
    const source = 'Docs:\n{% for d in docs %}\n  - {{ d }}\n{% endfor %}\n{# note #}\nEnd';
    expect(render(source, { docs: ['a', 'b'] })).toBe('Docs:\n  - a\n  - b\nEnd');
    expect(render('a {% if x %}b{% endif %} c', { x: 1 })).toBe('a b c');
    expect(render('  {% if x %}\n  yes\n  {% endif %}  \nno', { x: true })).toBe('  yes\nno');
    expect(render('{% if x %}{% endif %}\nz', {})).toBe('\nz'); // two tags on a line: not standalone
    expect(
      render('{% for t in ts %}\n- {{ t }}{% if loop.last %}.{% endif %}\n{% endfor %}\nend', { ts: ['a', 'b'] }),
    ).toBe('- a\n- b.\nend');
  });

  test('raw keeps tags as written; comments vanish', () => {
    expect(render('{% raw %}{{ x }} {% if %}{% endraw %}!{# gone #}', {})).toBe('{{ x }} {% if %}!');
  });
});

describe('refused when stored', () => {
  const cases: Array<[string, string]> = [
    ['{{ name', '{{ at line 1, column 1 is not closed by }}'],
    ['a\n {% if x %}', '{% if %} at line 2, column 2 is not closed by {% endif %}'],
    ['{% endif %}', '{% endif %} at line 1, column 1 closes no {% if %}'],
    ['{% for x in xs %}{% endif %}', '{% endif %} at line 1, column 18 closes no {% if %}'],
    [
      '{% if x %}{% else %}{% else %}{% endif %}',
      '{% else %} at line 1, column 21 is not inside an {% if %}, or comes twice, or has words after it',
    ],
    [
      '{% if x %}{% else %}{% elif y %}{% endif %}',
      '{% elif %} at line 1, column 21 is not inside an {% if %} before its {% else %}',
    ],
    [
      '{% for x of xs %}{% endfor %}',
      "{% for %} at line 1, column 1 must read {% for item in list %} (got '{% for x of xs %}')",
    ],
    [
      '{% for loop in xs %}{% endfor %}',
      "{% for %} at line 1, column 1: 'loop' is the loop's own variable (loop.index, loop.first, loop.last); name the item otherwise",
    ],
    [
      '{% include "x" %}',
      'unknown tag {% include %} at line 1, column 1 (tags: if, elif, else, endif, for, endfor, raw, endraw)',
    ],
    [
      '{{ a + b }}',
      "{{ }} at line 1, column 1 must be a variable name or a dotted path such as customer.name or items.0 (got 'a + b')",
    ],
    [
      '{{ }}',
      "{{ }} at line 1, column 1 must be a variable name or a dotted path such as customer.name or items.0 (got '')",
    ],
    [
      '{% if 1x %}{% endif %}',
      "{% if %} at line 1, column 1 must be a variable name or a dotted path such as customer.name or items.0 (got '1x')",
    ],
    ['{% raw %}x', '{% raw %} at line 1, column 1 has no {% endraw %}'],
    ['x{% endraw %}', '{% endraw %} at line 1, column 2 closes no {% raw %}'],
  ];
  test.each(cases)('%j', (source, message) => {
    const e = failure(() => parseTemplate(source));
    expect(e.code).toBe('syntax');
    expect(e.message).toBe(message);
  });

  test(`blocks nested deeper than ${MAX_NESTING}`, () => {
    const deep = (n: number) => '{% if x %}'.repeat(n) + '{% endif %}'.repeat(n);
    expect(() => parseTemplate(deep(MAX_NESTING))).not.toThrow();
    expect(failure(() => parseTemplate(deep(MAX_NESTING + 1))).message).toMatch(
      /^blocks nest deeper than 32 at line 1, column 321$/,
    );
  });
});

test('the variables a template reads, in first-use order, without loop variables', () => {
  expect(
    parseTemplate(
      '{{ b }} {% if a.x %}{% for i in items %}{{ i }}{{ loop.index }}{{ c }}{% endfor %}{% endif %}{{ b.y }}',
    ).variables,
  ).toEqual(['b', 'a', 'items', 'c']);
  expect(parseTemplate('{% raw %}{{ hidden }}{% endraw %}').variables).toEqual([]);
});

test('output is bounded: a loop that would pass maxChars stops with too-large', () => {
  const t = parseTemplate(
    '{% for a in xs %}{% for b in xs %}{% for c in xs %}0123456789{% endfor %}{% endfor %}{% endfor %}',
  );
  const xs = Array.from({ length: 100 }, (_, i) => i);
  expect(failure(() => renderTemplate(t, { xs }, { maxChars: 1_000_000 }))).toMatchObject({
    code: 'too-large',
    message: 'the rendered prompt passes 1000000 characters',
  });
  expect(renderTemplate(t, { xs: xs.slice(0, 10) })).toHaveLength(10_000);
  // Loops of no output are bounded by their steps.
  const silent = parseTemplate(
    '{% for a in xs %}{% for b in xs %}{% for c in xs %}{% endfor %}{% endfor %}{% endfor %}',
  );
  expect(failure(() => renderTemplate(silent, { xs }, { maxSteps: 100_000 }))).toMatchObject({
    code: 'too-large',
    message: 'rendering takes more than 100000 steps (loops inside loops)',
  });
  expect(renderTemplate(silent, { xs: xs.slice(0, 40) }, { maxSteps: 100_000 })).toBe('');
});

describe('filters', () => {
  test('upper, lower, trim, join, length, truncate on strings, arrays, objects and other JSON', () => {
    const vars = { name: '  Zoé ', tags: ['a', 1, true, null], o: { a: 1, b: 2 }, n: 42, emoji: '😀😀😀' };
    expect(render('{{ name | trim | upper }}|{{ name | lower }}|{{ tags | join(", ") }}|{{ tags | join }}', vars)).toBe(
      'ZOÉ|  zoé |a, 1, true, null|a1truenull',
    );
    expect(
      render('{{ tags | length }} {{ o | length }} {{ name | length }} {{ emoji | length }} {{ n | length }}', vars),
    ).toBe('4 2 6 3 2');
    expect(
      render(
        '{{ name | trim | truncate(2) }}|{{ emoji | truncate(2) }}|{{ o | truncate(5) }}|{{ name | truncate(0) }}',
        vars,
      ),
    ).toBe('Zo|😀😀|{"a":|');
    expect(render(`{{ tags | join(" \\"|\\" ") }}|{{ tags | join(' - ') }}`, vars)).toBe(
      'a "|" 1 "|" true "|" null|a - 1 - true - null',
    );
  });

  test('default replaces a missing or null value, which the other filters pass on; without one it is an error, or empty when not strict', () => {
    expect(
      render('{{ x | default("n/a") }} {{ y | default(7) }} {{ z | upper | default("none") | upper }}', { y: null }),
    ).toBe('n/a 7 NONE');
    expect(render('{{ x | default("n/a") }}', { x: 'here' })).toBe('here');
    expect(failure(() => render('{{ x | upper }}'))).toMatchObject({
      code: 'missing-variable',
      message: "'x' is missing (used at line 1, column 1)",
      variable: 'x',
    });
    const t = parseTemplate('[{{ x | upper }}][{{ a.b }}]{% for i in xs %}{{ i }}{% endfor %}{% if y %}y{% endif %}.');
    expect(renderTemplate(t, {}, { strict: false })).toBe('[][].');
    // Not strict renders what is missing as nothing; a value of the wrong kind is still an error.
    expect(failure(() => renderTemplate(t, { xs: 'no' }, { strict: false }))).toMatchObject({ code: 'not-a-list' });
    expect(failure(() => render('{{ s | join(",") }}', { s: 'ab' }))).toMatchObject({
      code: 'not-a-list',
      message: "'s' must be an array to join (is a string; filter join at line 1, column 1)",
    });
  });

  const refused: Array<[string, string]> = [
    [
      '{{ a | title }}',
      "unknown filter 'title' at line 1, column 1 (filters: upper, lower, trim, length, default, join, truncate)",
    ],
    [
      '{{ a | constructor }}',
      "unknown filter 'constructor' at line 1, column 1 (filters: upper, lower, trim, length, default, join, truncate)",
    ],
    ['{{ a | upper(1) }}', "filter 'upper' at line 1, column 1 takes no argument"],
    ['{{ a | truncate }}', "filter 'truncate' at line 1, column 1 needs an argument: truncate(40)"],
    [
      '{{ a | truncate(-1) }}',
      "filter 'truncate' at line 1, column 1: its argument must be an integer from 0 to 1000000 (got -1)",
    ],
    [
      '{{ a | truncate("3") }}',
      'filter \'truncate\' at line 1, column 1: its argument must be an integer from 0 to 1000000 (got "3")',
    ],
    ['{{ a | default }}', 'filter \'default\' at line 1, column 1 needs an argument: default("text")'],
    [
      '{{ a | default(b) }}',
      "filter 'default' at line 1, column 1: its argument must be a quoted string or an integer (got 'b')",
    ],
    ['{{ a | join(1) }}', "filter 'join' at line 1, column 1: its argument must be a quoted string (got 1)"],
    [
      '{{ a | }}',
      "filter '' at line 1, column 1 must read name or name(argument) (filters: upper, lower, trim, length, default, join, truncate)",
    ],
  ];
  test.each(refused)('refused when stored: %j', (source, message) => {
    expect(failure(() => parseTemplate(source))).toMatchObject({ code: 'syntax', message });
  });

  test('the variables of filtered outputs are read as any others', () => {
    expect(parseTemplate('{{ a | default("x") }}{{ b.c | upper }}{{ a | join("|") }}').variables).toEqual(['a', 'b']);
  });
});
