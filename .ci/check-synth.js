// Checks the quickstart template the real CDK CLI synthesized: the facts the foundation promises.
const fs = require('fs');
const file = process.argv[2];
const resources = JSON.parse(fs.readFileSync(file, 'utf8')).Resources;
const ofType = (type) => Object.values(resources).filter((r) => r.Type === type);
const fail = (msg) => { console.error(`check-synth: ${file}: ${msg}`); process.exit(1); };

const lustre = ofType('AWS::FSx::FileSystem');
if (lustre.length !== 1) fail(`expected 1 FSx file system, found ${lustre.length}`);
const fsx = lustre[0];
if (fsx.Properties.LustreConfiguration.DeploymentType !== 'SCRATCH_2') fail('FSx is not SCRATCH_2');
if (!fsx.Properties.LustreConfiguration.ImportPath) fail('FSx is not linked to S3 (no ImportPath)');
if (fsx.Properties.SubnetIds.length !== 1) fail('FSx must be in exactly one subnet');

const efs = ofType('AWS::EFS::FileSystem');
if (efs.length !== 1) fail(`expected 1 EFS file system, found ${efs.length}`);
if (!efs[0].Properties.PerformanceMode || !efs[0].Properties.ThroughputMode) fail('EFS modes are not explicit');
if (efs[0].Properties.Encrypted !== true) fail('EFS is not encrypted');

for (const [name, r] of Object.entries(resources)) {
  if (['AWS::FSx::FileSystem', 'AWS::EFS::FileSystem', 'AWS::S3::Bucket'].includes(r.Type)
      && r.DeletionPolicy !== 'Retain') fail(`${name} (${r.Type}) is not retained`);
  if (r.Type === 'AWS::S3::Bucket' && !r.Properties.BucketEncryption) fail(`${name} is not encrypted`);
  const ingress = r.Type === 'AWS::EC2::SecurityGroupIngress' ? [r.Properties]
    : r.Type === 'AWS::EC2::SecurityGroup' ? (r.Properties.SecurityGroupIngress || []) : [];
  for (const rule of ingress) {
    if (rule.CidrIp === '0.0.0.0/0' || rule.CidrIpv6 === '::/0') fail(`${name} admits the whole internet`);
  }
}
// The preload: a custom resource that references the file system, whose handler class is in its asset,
// and the training state machine deployed only after it.
const fsxId = Object.keys(resources).find((k) => resources[k].Type === 'AWS::FSx::FileSystem');
const preloads = Object.entries(resources).filter(([, r]) => r.Type === 'Custom::LustrePreload');
if (preloads.length !== 1) fail(`expected 1 Custom::LustrePreload, found ${preloads.length}`);
const [preloadId, preload] = preloads[0];
if (!JSON.stringify(preload.Properties.WorkerRequest).includes(`"Ref":"${fsxId}"`)) {
  fail('the preload worker does not mount the Lustre file system');
}
if (!JSON.stringify(preload.DependsOn || []).includes(fsxId)) fail('the preload does not depend on the file system');
const path = require('path');
const handlers = ofType('AWS::Lambda::Function').filter((f) => (f.Properties.Handler || '').includes('PreloadHandler'));
if (handlers.length !== 2) fail(`expected the onEvent and isComplete handlers, found ${handlers.length}`);
for (const f of handlers) {
  const asset = f.Metadata && f.Metadata['aws:asset:path'];
  const zip = path.join(path.dirname(file), asset);
  const listing = require('child_process').execFileSync('unzip', ['-l', zip]).toString();
  const cls = f.Properties.Handler.split('::')[0].replace(/\./g, '/') + '.class';
  if (!listing.includes(cls)) fail(`${cls} is not inside the handler asset ${asset}`);
}
const machines = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::StepFunctions::StateMachine'
  && JSON.stringify(r.Properties.DefinitionString).includes('createTrainingJob.sync'));
if (machines.length !== 1) fail(`expected 1 training state machine, found ${machines.length}`);
if (!(machines[0][1].DependsOn || []).includes(preloadId)) fail('the training state machine does not wait for the preload');

console.log(`check-synth: ${file}: ${Object.keys(resources).length} resources, SCRATCH_2 in one subnet, `
  + 'explicit EFS modes, data stores retained and encrypted, no ingress from 0.0.0.0/0, preload with its '
  + 'handler in its asset before the training state machine');
