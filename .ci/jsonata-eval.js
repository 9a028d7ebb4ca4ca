// Evaluates JSONata expressions for moto's Step Functions interpreter (.ci/moto_rehearsal.py), with jsonata, the
// reference implementation (Step Functions documents JSONata 2.0.6). Reads one JSON line {"expression": E} per
// expression and answers one line: {"value": V} (null when undefined) or {"error": MESSAGE}. moto hands over
// self-contained expressions: ($name := <json>; ...; <expression>), the variables and $states already declared.
'use strict';
const readline = require('readline');
const jsonata = require('jsonata');

const lines = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => {
  queue = queue.then(async () => {
    let answer;
    try {
      const value = await jsonata(JSON.parse(line).expression).evaluate(null);
      answer = { value: value === undefined ? null : value };
    } catch (e) {
      answer = { error: `${e.code || ''} ${e.message}`.trim() };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  });
});
