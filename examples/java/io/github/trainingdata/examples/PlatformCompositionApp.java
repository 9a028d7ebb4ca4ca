package io.github.trainingdata.examples;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;

/**
 * Synthesizes a platform composition the way platform teams lay it out: a data stack ({@link SharedDataStack}:
 * existing VPC, bucket and EFS, a Lustre cache and its preload) and one training stack per team
 * ({@link SharedTrainingStack}), each held back by the data stack's preload.
 * Run with {@code npx -y aws-cdk@2.1148.1 synth --app "mvn -B -q test-compile exec:java
 * -Dexample.mainClass=io.github.trainingdata.examples.PlatformCompositionApp"}.
 */
public final class PlatformCompositionApp {
    /** The data stack's settings: a 2400 GiB cache with three datasets, warmed at version 2026-11-01. */
    public static final DataSettings DATA = new DataSettings(2400, datasets(), "2026-11-01", List.of(), null, null);
    /** The teams: vision (ResNet on ImageNet, under the team's existing role) and detection (DETR on COCO). */
    public static final List<TrainingSettings> TEAMS = List.of(
            new TrainingSettings("Vision", "resnet", "imagenet", "2.5.1-gpu-py311", "ml.p4d.24xlarge", 2, Map.of(),
                    false, null, null, "arn:aws:iam::123456789012:role/team-sagemaker-execution", null),
            new TrainingSettings("Detection", "detr", "coco", "2.5.1-gpu-py311", "ml.g5.12xlarge", 1, Map.of(),
                    false, null, null, null, null));
    private static final StackProps ENV = StackProps.builder()
            .env(Environment.builder().account("123456789012").region("us-east-1").build()).build();

    private PlatformCompositionApp() {
    }

    /** Synthesizes the data stack and the teams' stacks into the CDK output directory. */
    public static void main(String[] args) {
        App app = new App();
        build(app, DATA, TEAMS);
        app.synth();
    }

    /**
     * Builds the stacks: {@code TrainingDataShared} and {@code TrainingTeam<name>} per team.
     *
     * @return the data stack, then the teams' stacks
     */
    public static List<Stack> build(App app, DataSettings data, List<TrainingSettings> teams) {
        SharedDataStack dataStack = new SharedDataStack(app, "TrainingDataShared", ENV, data);
        List<Stack> stacks = new ArrayList<>(List.of(dataStack));
        for (TrainingSettings team : teams) {
            stacks.add(new SharedTrainingStack(app, "TrainingTeam" + team.name(), ENV, dataStack, team));
        }
        return stacks;
    }

    private static Map<String, String> datasets() {
        Map<String, String> datasets = new LinkedHashMap<>();
        datasets.put("imagenet", "imagenet");
        datasets.put("coco", "coco");
        datasets.put("openimages", "openimages");
        return datasets;
    }
}
