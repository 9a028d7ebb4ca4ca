// Validates Amazon States Language definitions with two independent validators, asl-validator and
// @wmfs/statelint. Input (argv[2]): a JSON file {"asl": <the "asl" section of validate.json>, "definitions":
// {"<name>": <definition object>, ...}}. Output: one JSON object per definition and validator, one per line:
// {"name", "validator", "errors": [...]} or, where the config excludes that validator, {"name", "validator",
// "skipped": <reason>}.
//
// Each validator gets its own copy (asl-validator writes a QueryLanguage default into the object it is given),
// adapted only as validate.json says, each adaptation with its reason:
// - asl-validator: "lineBreaksFlattened": line breaks in string values become spaces (its JSONata string
//   patterns use '.', which does not match a line break, so a multi-line literal matches neither pattern);
// - statelint: "skipQueryLanguages": definitions in these query languages are not given to it;
//   "variablesUnknown": workflow variables are taken out of its copy (Assign fields dropped, a variable
//   reference "$name..." in a path field read as the reference path "$.name...");
//   "jsonataStatesInJsonPath": in a JSONPath definition, each state that sets "QueryLanguage": "JSONata" becomes, in
//   its copy, a Fail state (a Fail) or a Pass state with the same Next or End (any other), so that the JSONPath
//   states and every transition are still checked.
const fs = require('fs');
const aslValidator = require('asl-validator');
const { StateLint } = require('@wmfs/statelint');

const input = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const config = input.asl || {};
const aslConfig = config.aslValidator || {};
const lintConfig = config.statelint || {};
const statelint = new StateLint();
const copy = (value) => JSON.parse(JSON.stringify(value));
const VARIABLE = /^\$[A-Za-z_][A-Za-z0-9_]*([.[].*)?$/;

function flattenLineBreaks(node) {
  if (typeof node === 'string') return node.replace(/\r?\n/g, ' ');
  if (Array.isArray(node)) return node.map(flattenLineBreaks);
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, flattenLineBreaks(v)]));
  }
  return node;
}

function withoutVariables(node) {
  if (Array.isArray(node)) return node.map(withoutVariables);
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'Assign') continue;
    const pathField = key.endsWith('Path') || key === 'Variable' || key.endsWith('.$');
    out[key] = pathField && typeof value === 'string' && VARIABLE.test(value)
      ? `$.${value.slice(1)}` : withoutVariables(value);
  }
  return out;
}

const usesVariables = (node) => JSON.stringify(node).includes('"Assign"');

function withoutJsonataStates(definition) {
  for (const [stateName, state] of Object.entries(definition.States)) {
    if (state.QueryLanguage !== 'JSONata') continue;
    const stand = state.Type === 'Fail' ? { Type: 'Fail' } : { Type: 'Pass' };
    if (state.Type !== 'Fail') {
      if (state.Next) stand.Next = state.Next;
      else stand.End = true;
    }
    definition.States[stateName] = stand;
  }
  return definition;
}

for (const [name, definition] of Object.entries(input.definitions)) {
  const forAsl = aslConfig.lineBreaksFlattened ? flattenLineBreaks(copy(definition)) : copy(definition);
  const asl = aslValidator(forAsl);
  const aslErrors = asl.isValid ? [] : asl.errorsText('\n').split('\n');
  console.log(JSON.stringify({ name, validator: 'asl-validator@4.0.0', errors: aslErrors }));

  const language = definition.QueryLanguage || 'JSONPath';
  const skipped = (lintConfig.skipQueryLanguages || {})[language];
  if (skipped) {
    console.log(JSON.stringify({ name, validator: '@wmfs/statelint@1.30.0', skipped }));
    continue;
  }
  const plain = lintConfig.jsonataStatesInJsonPath ? withoutJsonataStates(copy(definition)) : copy(definition);
  const forLint = lintConfig.variablesUnknown && usesVariables(plain) ? withoutVariables(plain) : plain;
  console.log(JSON.stringify({ name, validator: '@wmfs/statelint@1.30.0', errors: statelint.validate(forLint) }));
}
