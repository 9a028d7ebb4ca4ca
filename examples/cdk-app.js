#!/usr/bin/env node
// The CDK app runner that cdk.json names: `node examples/cdk-app.js [MAIN_CLASS [ARGS...]]` runs MAIN_CLASS (default: the
// quickstart) on the test classpath, as `mvn test-compile exec:java` does, but in its own short-lived JVM:
//  - Maven runs only when the build is missing or older than pom.xml, src/, examples/ or test/ (a fresh clone
//    compiles on the first synth); it writes the dependency classpath to target/cdk-app/classpath.txt.
//  - The JVM runs C1-only with the serial collector, and with a class-data-sharing archive of the classes the
//    app loaded (target/cdk-app/app.jsa, made after the first successful run following a build); jsii's node
//    runs with one GC thread and without optimizing WebAssembly (see docs/performance.md, "Synth cost").
// Node runs it because the CDK CLI needs Node anyway: no sh/cmd pair, the same on Linux, macOS and Windows.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const DIR = path.join(ROOT, 'target', 'cdk-app');
const CLASSPATH_FILE = path.join(DIR, 'classpath.txt');
const CLASS_LIST = path.join(DIR, 'classes.lst');
const ARCHIVE = path.join(DIR, 'app.jsa');
const INPUTS = ['pom.xml', 'src', 'examples', 'test'];
const OUTPUTS = [path.join('target', 'classes'), path.join('target', 'test-classes')];
const DEFAULT_MAIN = 'io.github.trainingdata.examples.QuickstartApp';
const JAVA = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';

function newestMtime(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(file).reduce((newest, name) => Math.max(newest, newestMtime(path.join(file, name))),
    stat.mtimeMs);
}

function readClasspath() {
  const built = fs.statSync(CLASSPATH_FILE, { throwIfNoEntry: false });
  if (!built || OUTPUTS.some(dir => !fs.existsSync(path.join(ROOT, dir)))) return null;
  if (INPUTS.some(input => newestMtime(path.join(ROOT, input)) > built.mtimeMs)) return null;
  const jars = fs.readFileSync(CLASSPATH_FILE, 'utf8').trim().split(path.delimiter).filter(Boolean);
  return jars.every(jar => fs.existsSync(jar)) ? jars : null;
}

function run(command, args, options) {
  const result = spawnSync(command, args, { cwd: ROOT, shell: process.platform === 'win32' && command === 'mvn',
    ...options });
  if (result.error) {
    console.error(`cdk-app.js: cannot run ${command}: ${result.error.message}`);
    process.exit(1);
  }
  return result.status === null ? 128 : result.status;
}

function build() {
  fs.rmSync(DIR, { recursive: true, force: true }); // a new build, a new archive (the JDK may have changed too)
  // Maven's stdout goes to stderr: the CDK CLI's stdout is for the CLI.
  const status = run('mvn', ['-B', '-q', 'test-compile', 'dependency:build-classpath',
    '-Dmdep.outputFile=target/cdk-app/classpath.txt'], { stdio: ['ignore', process.stderr, 'inherit'] });
  if (status !== 0) process.exit(status);
  return readClasspath();
}

const jars = readClasspath() || build();
if (!jars) {
  console.error('cdk-app.js: the Maven build did not leave target/cdk-app/classpath.txt');
  process.exit(1);
}
// Jars first: a class-data-sharing archive holds only classes from jars, and the run's classpath must start with
// the archive's.
const classpath = [...jars, ...OUTPUTS.map(dir => path.join(ROOT, dir))].join(path.delimiter);
// The archive holds these jars' classes as they were: made again when a jar is newer (the JVM would ignore it).
const archived = fs.statSync(ARCHIVE, { throwIfNoEntry: false });
const hasArchive = !!archived && jars.every(jar => fs.statSync(jar).mtimeMs <= archived.mtimeMs);
const jvm = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xshare:auto'];
jvm.push(hasArchive ? `-XX:SharedArchiveFile=${ARCHIVE}` : `-XX:DumpLoadedClassList=${CLASS_LIST}`);
// jsii's node (unless JSII_NODE is set): one GC thread and baseline-compiled WebAssembly (aws-cdk-lib validates
// templates in WebAssembly). On a short run these save more CPU than they cost.
const env = { ...process.env };
env.JSII_NODE = env.JSII_NODE || 'node --single-threaded-gc --liftoff-only';
const [main = DEFAULT_MAIN, ...args] = process.argv.slice(2);
const status = run(JAVA, [...jvm, '-cp', classpath, main, ...args], { stdio: 'inherit', env });
if (status === 0 && !hasArchive && fs.existsSync(CLASS_LIST)) {
  // Once per build: archive the loaded classes for the next runs (a few seconds; a failure only costs speed).
  const partial = `${ARCHIVE}.${process.pid}`;
  const dump = run(JAVA, ['-Xshare:dump', `-XX:SharedClassListFile=${CLASS_LIST}`, `-XX:SharedArchiveFile=${partial}`,
    '-cp', jars.join(path.delimiter)], { stdio: 'ignore' });
  try {
    if (dump === 0) {
      fs.rmSync(ARCHIVE, { force: true });
      fs.renameSync(partial, ARCHIVE);
    }
  } catch (e) {
    console.error(`cdk-app.js: no class-data-sharing archive (${e.message}); the next synth tries again`);
  }
  fs.rmSync(partial, { force: true });
}
process.exit(status);
