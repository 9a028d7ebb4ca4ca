package io.github.trainingdata.examples;

import software.amazon.awscdk.App;

/**
 * Synthesizes the {@link AdvisedPlatformStack}: the advisor picks the data source from a dataset profile.
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
        app.synth();
    }
}
