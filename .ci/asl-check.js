// Validates Amazon States Language definitions with two independent validators, asl-validator and
// @wmfs/statelint. Input (argv[2]): a JSON file {"<name>": <definition object>, ...}. Output: one JSON object
// per definition and validator, {"name", "validator", "errors": [...]}, one per line.
const fs = require('fs');
const aslValidator = require('asl-validator');
const { StateLint } = require('@wmfs/statelint');

const definitions = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const statelint = new StateLint();
// asl-validator writes a QueryLanguage default into the object it is given: each validator gets its own copy.
const copy = (value) => JSON.parse(JSON.stringify(value));

for (const [name, definition] of Object.entries(definitions)) {
  const asl = aslValidator(copy(definition));
  const aslErrors = asl.isValid ? [] : asl.errorsText('\n').split('\n');
  console.log(JSON.stringify({ name, validator: 'asl-validator@4.0.0', errors: aslErrors }));
  console.log(JSON.stringify({ name, validator: '@wmfs/statelint@1.30.0', errors: statelint.validate(copy(definition)) }));
}
