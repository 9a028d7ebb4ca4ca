package io.github.trainingdata.examples.docs;

import io.github.trainingdata.cdk.launch.CapacityPlan;
import io.github.trainingdata.cdk.launch.CapacityRun;
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

    /**
     * Starts a job and, while a job fails for capacity, the definition's capacity policy's next attempt.
     *
     * @param parameterName       the definition's output {@code RequestParameterName}
     * @param policyParameterName the definition's output {@code CapacityPolicyParameterName}
     * @return what each attempt did
     * @throws InterruptedException if interrupted while waiting
     */
    public static CapacityRun launchWithCapacityPolicy(String parameterName, String policyParameterName)
            throws InterruptedException {
        // snippet:capacity
        DeployedTrainingJobDefinition definition = new DeployedTrainingJobDefinition(SsmClient.create(),
                SfnClient.create(), parameterName);
        CapacityPlan plan = definition.capacityPlan(policyParameterName);
        CapacityRun run = new TrainingJobLauncher(SageMakerClient.create()).runWithCapacityPlan(definition.document(),
                plan, "quickstart", null, Duration.ofSeconds(30), Duration.ofDays(2), System.out::println);
        run.attempts().forEach(a -> System.out.println(a.jobName() + " " + a.instanceType() + " " + a.dataSources()
                + " " + a.availabilityZones() + " " + a.outcome() + " " + a.failureReason()));
        // end-snippet
        return run;
    }
}
