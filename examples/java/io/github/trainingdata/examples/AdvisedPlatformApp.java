package io.github.trainingdata.examples;

import software.amazon.awscdk.App;

/**
 * Synthesizes the {@link AdvisedPlatformStack} (the advisor picks the data source from a dataset profile), the
 * {@link ThroughputPlatformStack} (the advisor picks a PERSISTENT_2 cache for a cluster that reads faster than the
 * data's size buys on SCRATCH_2) and the {@link ExpressPlatformStack} (the advisor picks FastFile on an S3 Express One
 * Zone directory bucket).
 * Run with {@code npx -y aws-cdk@2.1148.1 synth --app "mvn -B -q test-compile exec:java
 * -Dexample.mainClass=io.github.trainingdata.examples.AdvisedPlatformApp"}.
 */
public final class AdvisedPlatformApp {
    private AdvisedPlatformApp() {
    }

    /** Synthesizes the stack into the CDK output directory. */
    public static void main(String[] args) {
        App app = new App();
        new AdvisedPlatformStack(app, "TrainingDataAdvisedPlatform");
        new ThroughputPlatformStack(app, "TrainingDataThroughputPlatform");
        new ExpressPlatformStack(app, "TrainingDataExpressPlatform");
        app.synth();
    }
}
