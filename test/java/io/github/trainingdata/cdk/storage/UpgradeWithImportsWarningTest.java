package io.github.trainingdata.cdk.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.trainingdata.cdk.internal.ReplaceableReference;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.services.s3.Bucket;

/** The warning a published store or network gives when 0.x stacks may import what this release stops exporting. */
class UpgradeWithImportsWarningTest {
    private static Stack publishAll(App app) {
        Stack data = new Stack(app, "Data");
        TrainingNetwork network = new TrainingNetwork(data, "Network");
        TrainingDataBucket bucket = new TrainingDataBucket(data, "Bucket", TrainingDataBucketProps.builder()
                .bucket(Bucket.fromBucketName(data, "Existing", "team-datasets")).build());
        new LustreCache(data, "Lustre", LustreCacheProps.builder().network(network)
                .datasets(List.of(LustreDataset.builder("imagenet").dataBucket(bucket).prefix("imagenet").build()))
                .build()).publication();
        new EfsStore(data, "Efs", EfsStoreProps.builder().network(network).build()).publication();
        StorePublication.of(network);
        return data;
    }

    private static String warning(String path, String readNow, String imported, String strength) {
        return path + ": definitions in other stacks read " + readNow + " at run time now. If their stacks were "
                + "deployed by 0.x under strong cross-stack references (the app's " + ReplaceableReference.CONTEXT_KEY
                + " is " + strength + "), they import " + imported + ": CloudFormation then refuses this stack's "
                + "update. Before upgrading, once, with 0.x: set it to \"both\" and run cdk deploy --all (CHANGELOG, "
                + "Upgrading); then acknowledge this warning [ack: @trainingdata/storage:upgradeWithImports]";
    }

    @Test
    void eachPublisherWarnsOnceWhenReferencesAreUnset() {
        Annotations annotations = Annotations.fromStack(publishAll(new App()));
        String unset = "unset, which aws-cdk-lib treats as strong";
        annotations.hasWarning("/Data/Lustre", warning("Data/Lustre", "this cache",
                "the cache's id and mount name, which upgrading replaces", unset));
        annotations.hasWarning("/Data/Efs", warning("Data/Efs", "this file system's id",
                "its id, whose export this release drops", unset));
        annotations.hasWarning("/Data/Network", warning("Data/Network", "this network's subnets",
                "the data subnet's id, whose export this release drops", unset));
        assertEquals(3, annotations.findWarning("*", Match.stringLikeRegexp(".*at run time now.*")).size());
    }

    @Test
    void strongReferencesAreNamedAndBothGivesNoWarning() {
        App strong = new App(AppProps.builder().context(Map.of(ReplaceableReference.CONTEXT_KEY, "strong")).build());
        Annotations.fromStack(publishAll(strong)).hasWarning("/Data/Lustre", warning("Data/Lustre", "this cache",
                "the cache's id and mount name, which upgrading replaces", "strong"));
        App both = new App(AppProps.builder().context(Map.of(ReplaceableReference.CONTEXT_KEY, "both")).build());
        assertEquals(0, Annotations.fromStack(publishAll(both))
                .findWarning("*", Match.stringLikeRegexp(".*at run time now.*")).size());
    }
}
