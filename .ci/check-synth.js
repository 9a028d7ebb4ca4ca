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
if (fsx.Properties.SubnetIds.length !== 1) fail('FSx must be in exactly one subnet');
const fsxId = Object.keys(resources).find((k) => resources[k].Type === 'AWS::FSx::FileSystem');
// Each dataset is a data repository association custom resource on the file system (its paths may change in place).
const links = ofType('Custom::DataRepositoryAssociation')
  .filter((a) => JSON.stringify(a.Properties.FileSystemId) === JSON.stringify({ Ref: fsxId }));
if (links.length === 0) fail('FSx is not linked to S3 (no data repository association)');
if (ofType('AWS::FSx::DataRepositoryAssociation').length !== 0) fail('an AWS::FSx::DataRepositoryAssociation is left');
// S3 holds the only copy of a cache that does not export: it is deleted with the stack; one that exports is kept,
// and its associations with it (except when the deploy that created it rolls back).
const exporting = links.some((a) => (a.Properties.AutoExportEvents || []).length > 0);
const kept = exporting ? 'RetainExceptOnCreate' : 'Delete';
if (fsx.DeletionPolicy !== kept) {
  fail(`FSx DeletionPolicy is ${fsx.DeletionPolicy}, expected ${exporting ? 'RetainExceptOnCreate (it exports)' : 'Delete (S3 holds its data)'}`);
}
if (links.some((a) => a.DeletionPolicy !== kept)) fail(`an association's DeletionPolicy is not ${kept} like the file system's`);

const efs = ofType('AWS::EFS::FileSystem');
if (efs.length !== 1) fail(`expected 1 EFS file system, found ${efs.length}`);
if (!efs[0].Properties.PerformanceMode || !efs[0].Properties.ThroughputMode) fail('EFS modes are not explicit');
if (efs[0].Properties.Encrypted !== true) fail('EFS is not encrypted');

for (const [name, r] of Object.entries(resources)) {
  // EFS is deleted by a failed first create's rollback (it holds nothing yet); a bucket is kept even then, since S3
  // refuses to delete one that holds any object version (the rollback would end ROLLBACK_FAILED).
  if (r.Type === 'AWS::EFS::FileSystem' && r.DeletionPolicy !== 'RetainExceptOnCreate') {
    fail(`${name} (${r.Type}) is not retained (except on a failed create)`);
  }
  if (r.Type === 'AWS::S3::Bucket' && r.DeletionPolicy !== 'Retain') fail(`${name} (${r.Type}) is not retained`);
  if (r.Type === 'AWS::S3::Bucket' && !r.Properties.BucketEncryption) fail(`${name} is not encrypted`);
  const ingress = r.Type === 'AWS::EC2::SecurityGroupIngress' ? [r.Properties]
    : r.Type === 'AWS::EC2::SecurityGroup' ? (r.Properties.SecurityGroupIngress || []) : [];
  for (const rule of ingress) {
    if (rule.CidrIp === '0.0.0.0/0' || rule.CidrIpv6 === '::/0') fail(`${name} admits the whole internet`);
  }
}
// The preload: a custom resource that starts executions of the preload state machine on the file system, whose
// Warm state runs the worker on that file system; the handler class is in its asset; the training state machine
// deploys after it and waits for its execution.
const preloads = Object.entries(resources).filter(([, r]) => r.Type === 'Custom::LustrePreload');
if (preloads.length !== 1) fail(`expected 1 Custom::LustrePreload, found ${preloads.length}`);
const [preloadId, preload] = preloads[0];
if (JSON.stringify(preload.Properties.FileSystemId) !== JSON.stringify({ Ref: fsxId })) {
  fail('the preload does not warm the Lustre file system');
}
const preloadMachineId = preload.Properties.StateMachineArn && preload.Properties.StateMachineArn.Ref;
const preloadMachine = resources[preloadMachineId];
if (!preloadMachine || preloadMachine.Type !== 'AWS::StepFunctions::StateMachine') {
  fail('the preload names no state machine of this template');
}
const definitionOf = (machine) => JSON.stringify(machine.Properties.DefinitionString);
if (!definitionOf(preloadMachine).includes(`{"Ref":"${fsxId}"}`)) fail('the preload worker does not mount the Lustre file system');
const path = require('path');
// One provider per stack: one dispatcher function serves the preload, the associations, the task guard and the
// training teardown; its asset must carry every handler class it dispatches to.
const dispatchers = ofType('AWS::Lambda::Function')
  .filter((f) => (f.Properties.Handler || '').includes('CustomResourceDispatcher'));
if (dispatchers.length !== 1) fail(`expected 1 custom-resource dispatcher function, found ${dispatchers.length}`);
const dispatcherAsset = dispatchers[0].Metadata && dispatchers[0].Metadata['aws:asset:path'];
const dispatcherListing = require('child_process')
  .execFileSync('unzip', ['-l', path.join(path.dirname(file), dispatcherAsset)]).toString();
for (const cls of ['io/github/trainingdata/cdk/internal/dispatch/CustomResourceDispatcher.class',
  'io/github/trainingdata/cdk/preload/handler/PreloadHandler.class',
  'io/github/trainingdata/cdk/storage/associations/DataRepositoryAssociationHandler.class',
  'io/github/trainingdata/cdk/training/handler/TrainingTeardownHandler.class']) {
  if (!dispatcherListing.includes(cls)) fail(`${cls} is not inside the dispatcher's asset ${dispatcherAsset}`);
}
// Every custom resource of the library names the one provider's dispatcher as its ServiceToken (the library's own
// provider: no Provider framework function in between, none keeps an earlier release's provider alive through a
// forwarder), and the stack has at most 3 functions (issue 27).
const dispatcherId = Object.keys(resources).find((k) => resources[k] === dispatchers[0]);
const token = JSON.stringify({ 'Fn::GetAtt': [dispatcherId, 'Arn'] });
const frameworks = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function'
  && /^framework\./.test(r.Properties.Handler || ''));
if (frameworks.length !== 0) fail(`expected no Provider framework function, found ${frameworks.map(([id]) => id).join(', ')}`);
const libraryTypes = ['Custom::DataRepositoryAssociation', 'Custom::LustreTaskGuard', 'Custom::LustrePreload',
  'Custom::TrainingTeardown', 'Custom::EfsDirectories'];
// aws-cdk-lib's own custom resources (the VPC's default security group restriction), on its singleton providers.
const cdkTypes = ['Custom::VpcRestrictDefaultSG'];
for (const [id, r] of Object.entries(resources)) {
  if (!r.Type.startsWith('Custom::') || cdkTypes.includes(r.Type)) continue;
  if (!libraryTypes.includes(r.Type)) fail(`${id}: ${r.Type} is neither a library type nor aws-cdk-lib's known here`);
  if (JSON.stringify(r.Properties.ServiceToken) !== token) {
    fail(`${id} (${r.Type}) is not served by the stack's provider: ServiceToken ${JSON.stringify(r.Properties.ServiceToken)}`);
  }
}
// The quickstart has every library type: a type that is missing (or renamed) would pass the check above unchecked.
const missing = libraryTypes.filter((type) => ofType(type).length === 0);
if (missing.length > 0) fail(`no ${missing.join(', ')} in the template: its ServiceToken would go unchecked`);
const functions = ofType('AWS::Lambda::Function').length;
if (functions > 3) fail(`${functions} Lambda functions, expected at most 3`);
const machines = Object.entries(resources).filter(([id, r]) => r.Type === 'AWS::StepFunctions::StateMachine'
  && id !== preloadMachineId && definitionOf(r).includes('createTrainingJob.sync'));
if (machines.length !== 1) fail(`expected 1 training state machine, found ${machines.length}`);
if (!(machines[0][1].DependsOn || []).includes(preloadId)) fail('the training state machine does not deploy after the preload');
// Training looks the current warm-up up at run time, in the parameter that holds the preload's ExecutionArn.
const pointers = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::SSM::Parameter'
  && JSON.stringify(r.Properties.Value) === JSON.stringify({ 'Fn::GetAtt': [preloadId, 'ExecutionArn'] }));
if (pointers.length !== 1) fail(`expected 1 parameter holding the preload's execution, found ${pointers.length}`);
if (!definitionOf(machines[0][1]).includes(`{"Ref":"${pointers[0][0]}"}`)
    || !definitionOf(machines[0][1]).includes('aws-sdk:ssm:getParameter')) {
  fail('the training state machine does not wait for the current preload execution');
}

console.log(`check-synth: ${file}: ${Object.keys(resources).length} resources, ${functions} functions, SCRATCH_2 in one subnet, `
  + 'FSx linked to S3 by association custom resources (deleted with the stack unless it exports, handlers in their asset), explicit EFS modes, EFS and buckets retained, encrypted, no ingress from 0.0.0.0/0, preload '
  + 'state machine warming the file system with its handler in its asset, every custom resource on the stack\'s '
  + 'one provider, the preload before the training state machine, '
  + 'which waits for the execution current when it starts');
