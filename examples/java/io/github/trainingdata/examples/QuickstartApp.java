package io.github.trainingdata.examples;

import software.amazon.awscdk.App;

/**
 * The app {@code cdk.json} runs: synthesizes the {@link QuickstartStack} (environment-agnostic, so
 * {@code cdk synth} needs no AWS account; {@code cdk deploy} deploys it where credentials exist).
 */
public final class QuickstartApp {
    private QuickstartApp() {
    }

    /** Synthesizes the quickstart stack into the CDK output directory. */
    public static void main(String[] args) {
        App app = new App();
        new QuickstartStack(app, "TrainingDataQuickstart");
        app.synth();
    }
}
