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
console.log(`check-synth: ${file}: ${Object.keys(resources).length} resources, SCRATCH_2 in one subnet, `
  + 'explicit EFS modes, data stores retained and encrypted, no ingress from 0.0.0.0/0');
