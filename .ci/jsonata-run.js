// Runs one JSONata state machine's path for a scripted execution and prints the arguments of every task it calls,
// so that validate.py can check what a JSONata state sends without a deployed Step Functions. Evaluates expressions
// with jsonata (the reference implementation; Step Functions documents JSONata 2.0.6), binding $states (input,
// result, errorOutput, context) and the workflow variables as Step Functions does: a state's Output and Assign see
// the variables as they were when it was entered. Task results come from the scenario, by the end of the resource
// ("sagemaker:createTrainingJob.sync"); a result {"sequence": [r1, r2, ...]} answers the calls in turn (the last
// repeats). States: Task, Map (INLINE), Choice, Pass, Wait (no time passes), Succeed, Fail; Retry and Catch are not
// taken (the scenario's tasks all succeed).
//
//   node jsonata-run.js SCENARIO.json   with   {"definition": {...}, "name": "...", "input": {...},
//                                               "results": {"<resource suffix>": <result>, ...}}
// prints {"status": "SUCCEEDED"|"FAILED", "calls": [{"state": S, "resource": R, "arguments": A}, ...], "error": E}.
'use strict';
const fs = require('fs');
const jsonata = require('jsonata');

const MAX_TRANSITIONS = 10000;
const scenario = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const start = '2026-11-22T04:15:03.000Z';
const calls = [];

function isExpression(value) {
  return typeof value === 'string' && value.startsWith('{%') && value.endsWith('%}');
}

async function evaluate(template, states, variables) {
  if (isExpression(template)) {
    return jsonata(template.slice(2, -2).trim()).evaluate(null, { ...variables, states });
  }
  if (Array.isArray(template)) {
    const out = [];
    for (const item of template) out.push(await evaluate(item, states, variables));
    return out;
  }
  if (template && typeof template === 'object') {
    const out = {};
    for (const [key, value] of Object.entries(template)) {
      const evaluated = await evaluate(value, states, variables);
      if (evaluated !== undefined) out[key] = evaluated;
    }
    return out;
  }
  return template;
}

function context(name) {
  return { Execution: { Name: scenario.name, Input: scenario.input, StartTime: start },
    State: { Name: name, EnteredTime: start } };
}

const answered = {};

function result(resource) {
  const key = Object.keys(scenario.results).find((suffix) => resource.endsWith(suffix));
  if (key === undefined) throw new Error(`no scripted result for ${resource}`);
  const scripted = scenario.results[key];
  if (!scripted || !Array.isArray(scripted.sequence)) return scripted;
  const n = answered[key] = (answered[key] || 0) + 1;
  return scripted.sequence[Math.min(n, scripted.sequence.length) - 1];
}

async function assign(block, states, variables) {
  return block === undefined ? variables : { ...variables, ...(await evaluate(block, states, variables)) };
}

async function machine(definition, input, variables) {
  let name = definition.StartAt;
  let data = input;
  let vars = variables;
  for (let i = 0; i < MAX_TRANSITIONS; i++) {
    const state = definition.States[name];
    if (!state) throw new Error(`no state ${name}`);
    const states = { input: data, context: context(name) };
    let output = data;
    let next = state.Next;
    if (state.Type === 'Task' || state.Type === 'Map') {
      let value;
      if (state.Type === 'Task') {
        const args = await evaluate(state.Arguments, states, vars);
        calls.push({ state: name, resource: state.Resource, arguments: args });
        value = result(state.Resource);
      } else {
        const items = await evaluate(state.Items, states, vars);
        value = [];
        for (const item of items) {
          const iteration = await machine(state.ItemProcessor, item, vars);
          if (iteration.status !== 'SUCCEEDED') return iteration;
          value.push(iteration.output);
        }
      }
      const done = { ...states, result: value };
      output = state.Output === undefined ? value : await evaluate(state.Output, done, vars);
      vars = await assign(state.Assign, done, vars);
      if (state.End) return { status: 'SUCCEEDED', output, variables: vars };
    } else if (state.Type === 'Choice') {
      next = state.Default;
      let block = state.Assign;
      for (const rule of state.Choices) {
        if ((await evaluate(rule.Condition, states, vars)) === true) {
          next = rule.Next;
          block = rule.Assign;
          break;
        }
      }
      vars = await assign(block, states, vars);
    } else if (state.Type === 'Pass' || state.Type === 'Wait' || state.Type === 'Succeed') {
      output = state.Output === undefined ? data : await evaluate(state.Output, states, vars);
      vars = await assign(state.Assign, states, vars);
      if (state.Type === 'Succeed') return { status: 'SUCCEEDED', output, variables: vars };
    } else if (state.Type === 'Fail') {
      return { status: 'FAILED', error: await evaluate(state.Error, states, vars) };
    } else {
      throw new Error(`state type ${state.Type} is not supported`);
    }
    name = next;
    data = output;
  }
  throw new Error(`no end after ${MAX_TRANSITIONS} transitions`);
}

machine(scenario.definition, scenario.input, {})
  .then((end) => console.log(JSON.stringify({ status: end.status, error: end.error, calls })))
  .catch((e) => console.log(JSON.stringify({ status: 'ERROR', error: String(e && e.message ? e.message : e), calls })));
