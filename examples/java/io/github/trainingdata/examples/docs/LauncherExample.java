package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.launch.DeployedTrainingJobDefinition;
import io.github.trainingdata.cdk.launch.TrainingJobLauncher;
import java.time.Duration;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/** Starting jobs of a deployed definition with the AWS SDK. */
public final class LauncherExample {
    private LauncherExample() {
    }

    /**
     * Starts a job from the definition's SSM parameter, waits for it, then resumes from its checkpoints.
     *
     * @param parameterName the definition's output {@code RequestParameterName}
     * @return the resumed job's name
     * @throws InterruptedException if interrupted while waiting
     */
    public static String launchAndResume(String parameterName) throws InterruptedException {
        // snippet:launcher
        SageMakerClient sageMaker = SageMakerClient.create();
        String document = new DeployedTrainingJobDefinition(SsmClient.create(), SfnClient.create(), parameterName).document();
        TrainingJobLauncher launcher = new TrainingJobLauncher(sageMaker);
        String job = launcher.start(document, "quickstart");   // quickstart-20261122-041503-a1b2
        launcher.waitForCompletion(job, Duration.ofSeconds(30), Duration.ofDays(2), System.out::println);
        String next = launcher.resume(document, "quickstart", job);   // trains on the checkpoints of `job`
        // end-snippet
        return next;
    }
}
