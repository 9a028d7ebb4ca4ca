package io.github.trainingdata.examples;

import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;

/**
 * Synthesizes a platform composition split across two stacks: {@link SharedDataStack} (existing VPC,
 * bucket and EFS, plus a Lustre cache) and {@link SharedTrainingStack} (two definitions sharing it).
 * Run with {@code npx -y aws-cdk@2.1148.1 synth --app "mvn -B -q test-compile exec:java
 * -Dexample.mainClass=io.github.trainingdata.examples.PlatformCompositionApp"}.
 */
public final class PlatformCompositionApp {
    private PlatformCompositionApp() {
    }

    /** Synthesizes both stacks into the CDK output directory. */
    public static void main(String[] args) {
        App app = new App();
        StackProps env = StackProps.builder()
                .env(Environment.builder().account("123456789012").region("us-east-1").build()).build();
        SharedDataStack data = new SharedDataStack(app, "TrainingDataShared", env);
        new SharedTrainingStack(app, "TrainingTeamVision", env, data);
        app.synth();
    }
}
