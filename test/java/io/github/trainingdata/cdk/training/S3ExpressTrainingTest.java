package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.PolicyStatements.allStatements;
import static io.github.trainingdata.cdk.PolicyStatements.elements;
import static io.github.trainingdata.cdk.PolicyStatements.strings;
import static io.github.trainingdata.cdk.RuleAssertions.assertRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.network.TrainingNetwork;
import io.github.trainingdata.cdk.network.TrainingNetworkProps;
import io.github.trainingdata.cdk.storage.S3ExpressStore;
import io.github.trainingdata.cdk.storage.S3ExpressStoreProps;
import io.github.trainingdata.cdk.storage.S3Store;
import io.github.trainingdata.cdk.storage.StoreAccess;
import io.github.trainingdata.cdk.storage.StoreGrants;
import io.github.trainingdata.cdk.storage.StoreZone;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.ec2.CfnSubnet;
import software.amazon.awscdk.services.ec2.Subnet;
import software.amazon.awscdk.services.ec2.SubnetProps;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcProps;
import software.amazon.awscdk.services.kms.Key;
import software.constructs.Construct;

/**
 * Jobs on an S3 Express One Zone directory bucket, through an S3 channel or a direct read: the request, the session
 * grant, the placement in the bucket's zone, and the rules of reading a store that keeps its data in one zone.
 */
class S3ExpressTrainingTest {
    private final TrainingFixture f = new TrainingFixture();

    private S3ExpressStore express(TrainingNetwork network) {
        return new S3ExpressStore(f.stack, "Express", S3ExpressStoreProps.builder().network(network)
                .baseName("features").build());
    }

    private static Map<?, ?> s3Source(Map<String, Object> request, int channel) {
        Map<?, ?> entry = (Map<?, ?>) ((List<?>) request.get("InputDataConfig")).get(channel);
        return (Map<?, ?>) ((Map<?, ?>) entry.get("DataSource")).get("S3DataSource");
    }

    private List<Map<String, Object>> createSessionStatements() {
        return allStatements(Template.fromStack(f.stack)).stream()
                .filter(s -> strings(s.get("Action")).contains("s3express:CreateSession")).toList();
    }

    @Test
    void aChannelReadsTheDirectoryBucketInItsZoneWithAReadOnlySession() {
        S3ExpressStore store = express(f.network());
        TrainingJobDefinition job = f.define(f.props().channels(List.of(S3Channel.builder("train").store(store)
                .path("train").inputMode(ChannelInputMode.FAST_FILE).build())));
        Map<String, Object> request = job.getRequest();

        assertEquals(f.stack.resolve(store.s3Uri("train")), f.stack.resolve(s3Source(request, 0).get("S3Uri")));
        assertEquals(List.of(f.network().getDataSubnet().getSubnetId()),
                ((Map<?, ?>) request.get("VpcConfig")).get("Subnets"));
        List<Map<String, Object>> sessions = createSessionStatements();
        assertEquals(1, sessions.size(), sessions.toString());
        assertEquals(f.stack.resolve(store.getBucketArn()), sessions.get(0).get("Resource"));
        assertEquals(Map.of("StringEquals", Map.of("s3express:SessionMode", "ReadOnly")),
                sessions.get(0).get("Condition"));
        Annotations.fromStack(f.stack).hasNoWarning("/Test/Training", Match.anyValue());
        SageMakerModelCheck.assertValid(f.stack, List.of());
    }

    @Test
    void theTrainingCodeReadsAPrefixItselfFromItsEnvironmentVariable() {
        S3ExpressStore store = express(f.network());
        TrainingJobDefinition job = f.define(f.props().directReads(List.of(
                DirectRead.builder("TRAIN_SHARDS").store(store).path("shards/train").build())));
        Map<String, Object> request = job.getRequest();

        assertEquals(f.stack.resolve(store.s3Uri("shards/train")),
                f.stack.resolve(((Map<?, ?>) request.get("Environment")).get("TRAIN_SHARDS")));
        assertEquals(null, request.get("InputDataConfig"), "no channel: the code reads the bucket itself");
        assertEquals(List.of(f.network().getDataSubnet().getSubnetId()),
                ((Map<?, ?>) request.get("VpcConfig")).get("Subnets"));
        assertEquals(1, createSessionStatements().size());
        SageMakerModelCheck.assertValid(f.stack, List.of());
    }

    @Test
    void aDirectReadOfAGeneralPurposeBucketIsGrantedExactlyItsPrefix() {
        f.define(f.props().directReads(List.of(DirectRead.builder("TRAIN_SHARDS").store(f.data).path("shards")
                .build())));
        List<Map<String, Object>> gets = allStatements(Template.fromStack(f.stack)).stream()
                .filter(s -> strings(s.get("Action")).contains("s3:GetObject")).toList();

        Object shards = f.stack.resolve(f.data.getBucket().arnForObjects("imagenet/shards/*"));
        Object output = f.stack.resolve(f.data.getBucket().arnForObjects("training-output/*"));
        assertEquals(List.of(List.of(shards, output)), gets.stream().map(s -> elements(s.get("Resource"))).toList(),
                "the direct read's prefix and the job's output prefix, nothing else");
    }

    @Test
    void warnsWhenATrainingSubnetMayBeOutsideThePreferredZone() {
        S3ExpressStore store = express(f.network());
        f.define(f.props().vpcSubnets(SubnetSelection.builder()
                        .subnets(List.of(f.network().getVpc().getIsolatedSubnets().get(1))).build())
                .channels(List.of(S3Channel.builder("train").store(store).build())));

        Annotations.fromStack(f.stack).hasWarning("/Test/Training", "Test/Training: cannot tell at synth whether "
                + "subnet Test/Network/Vpc/DataSubnet2 is in the Availability Zone of channel 'train'; it reads "
                + "across zones if not [ack: @trainingdata/training:subnetZoneUnknown]");
    }

    @Test
    void warnsWhenATrainingSubnetIsInAnotherZoneThanThePreferredOne() {
        TrainingNetwork network = zonedNetwork();
        Subnet other = (Subnet) f.stack.getNode().findChild("ZoneSubnet2");
        S3ExpressStore store = new S3ExpressStore(f.stack, "Express", S3ExpressStoreProps.builder().network(network)
                .zoneId("use1-az1").baseName("features").build());
        TrainingJobDefinition job = f.define(f.props().vpcSubnets(SubnetSelection.builder().subnets(List.of(other))
                .build()).channels(List.of(S3Channel.builder("train").store(store).build())));

        assertEquals(List.of(other.getSubnetId()), ((Map<?, ?>) job.getRequest().get("VpcConfig")).get("Subnets"),
                "a preferred zone is not a requirement: the job runs where it was put");
        Annotations.fromStack(f.stack).hasWarning("/Test/Training", "Test/Training: subnet Test/ZoneSubnet2 is not in the "
                + "zone where the store of channel 'train' keeps its data; a job there reads across zones (slower, and "
                + "billed for the transfer) [ack: @trainingdata/training:subnetOutsidePreferredZone]");
    }

    @Test
    void aStoreThatRequiresAZoneByIdRefusesASubnetInAnotherZone() {
        TrainingNetwork network = zonedNetwork();
        Subnet other = (Subnet) f.stack.getNode().findChild("ZoneSubnet2");
        OwnStore zonal = new OwnStore(f.stack, "Zonal", network, StoreZone.ofId(StoreZone.Affinity.REQUIRED,
                "use1-az1"), S3Store.ALL_INPUT_MODES);

        assertRule("TRAINING_SUBNETS_IN_LUSTRE_AZ", () -> f.define(f.props().vpcSubnets(SubnetSelection.builder()
                .subnets(List.of(other)).build()).channels(List.of(S3Channel.builder("train").store(zonal).build()))),
                "Test/Training", "vpcSubnets", "Test/ZoneSubnet2",
                "subnets in the Availability Zone of channel 'train' (its store keeps its data in one zone; "
                        + "SageMaker must run there to reach it)");
    }

    /**
     * @return a network on a one-zone VPC whose data subnet {@code ZoneSubnet1} is in zone ID {@code use1-az1}, beside
     *     a subnet {@code ZoneSubnet2} in {@code use1-az2} (both with literal zone IDs)
     */
    private TrainingNetwork zonedNetwork() {
        Vpc vpc = new Vpc(f.stack, "Vpc", VpcProps.builder().maxAzs(1).natGateways(0)
                .subnetConfiguration(List.of(SubnetConfiguration.builder().name("Isolated").cidrMask(24)
                        .subnetType(SubnetType.PRIVATE_ISOLATED).build())).build());
        Subnet data = zoneSubnet(vpc, "ZoneSubnet1", "10.0.250.0/24", "use1-az1");
        zoneSubnet(vpc, "ZoneSubnet2", "10.0.251.0/24", "use1-az2");
        return new TrainingNetwork(f.stack, "Own", TrainingNetworkProps.builder().vpc(vpc).dataSubnet(data).build());
    }

    private Subnet zoneSubnet(Vpc vpc, String id, String cidr, String zoneId) {
        Subnet subnet = new Subnet(f.stack, id, SubnetProps.builder().vpcId(vpc.getVpcId()).cidrBlock(cidr)
                .availabilityZone("us-east-1a").build());
        CfnSubnet cfn = (CfnSubnet) subnet.getNode().getDefaultChild();
        cfn.addPropertyDeletionOverride("AvailabilityZone");
        cfn.setAvailabilityZoneId(zoneId);
        return subnet;
    }

    @Test
    void rejectsAStoreThatRequiresAZoneForAJobWithoutANetwork() {
        S3Store zonal = new OwnStore(f.stack, "Zonal", null, StoreZone.ofId(StoreZone.Affinity.REQUIRED, "use1-az4"),
                List.of("File"));

        assertRule("TRAINING_ZONE_WITHOUT_NETWORK", () -> f.define(f.props().channels(List.of(
                S3Channel.builder("train").store(zonal).build()))),
                "Test/Training", "network", null,
                "a TrainingNetwork for the job: the channel 'train' reads Test/Zonal, which keeps its data in one "
                        + "zone (REQUIRED id use1-az4), and a job outside a VPC runs in a zone SageMaker picks");
    }

    @Test
    void aJobWithoutANetworkReadsADirectoryBucketAcrossZonesWithAWarning() {
        S3ExpressStore store = new S3ExpressStore(f.stack, "Express", S3ExpressStoreProps.builder()
                .bucketName("features--use1-az4--x-s3").build());

        Map<String, Object> request = f.define(f.props().channels(List.of(
                S3Channel.builder("train").store(store).build()))).getRequest();

        assertEquals(null, request.get("VpcConfig"));
        Annotations.fromStack(f.stack).hasWarning("/Test/Training", "Test/Training: the channel 'train' reads "
                + "Test/Express, which keeps its data in one zone; a job outside a VPC runs in a zone SageMaker picks "
                + "and may read across zones (slower, and billed for the transfer): give the job or the store a "
                + "network to run it there [ack: @trainingdata/training:outsideVpcPreferredZone]");
    }

    @Test
    void rejectsAnInputModeTheStoreDoesNotAccept() {
        S3Store fileOnly = new OwnStore(f.stack, "FileOnly", null, null, List.of("File"));

        assertRule("CHANNEL_STORE_INPUT_MODE", () -> f.define(f.props().channels(List.of(
                S3Channel.builder("train").store(fileOnly).inputMode(ChannelInputMode.FAST_FILE).build()))),
                "Test/Training", "channels[0].inputMode", "FastFile",
                "an input mode the store Test/FileOnly accepts: File");
    }

    @Test
    void rejectsADirectReadWithoutAStore() {
        assertRule("TRAINING_DIRECT_READ_STORE", () -> f.define(f.props().directReads(List.of(
                DirectRead.builder("TRAIN").build()))),
                "Test/Training", "directReads[0].store", null,
                "the S3 store the training code reads (a TrainingDataBucket, an S3ExpressStore or an S3Store of "
                        + "your own)");
    }

    @Test
    void rejectsADirectReadVariableTheEnvironmentSets() {
        assertRule("TRAINING_DIRECT_READ_VARIABLE", () -> f.define(f.props().environment(Map.of("TRAIN", "x"))
                .directReads(List.of(DirectRead.builder("TRAIN").store(f.data).build()))),
                "Test/Training", "directReads[0].environmentVariable", "TRAIN",
                "a variable neither the job's environment nor another direct read sets");
    }

    @Test
    void aJobWritesItsOutputToADirectoryBucketWithSseS3() {
        S3ExpressStore store = express(f.network());
        TrainingJobDefinition job = f.define(f.props().outputBucket(store).outputPrefix("models"));
        Map<?, ?> output = (Map<?, ?>) job.getRequest().get("OutputDataConfig");

        assertEquals(f.stack.resolve(store.uri("models") + "/"), f.stack.resolve(output.get("S3OutputPath")));
        assertEquals(null, output.get("KmsKeyId"));
        List<Map<String, Object>> sessions = createSessionStatements();
        assertEquals(1, sessions.size());
        assertEquals(null, sessions.get(0).get("Condition"), "output needs a ReadWrite session");
        SageMakerModelCheck.assertValid(f.stack, List.of());
    }

    @Test
    void rejectsAKmsKeyOnOutputToADirectoryBucket() {
        Key key = new Key(f.stack, "Key");
        S3ExpressStore store = new S3ExpressStore(f.stack, "Express", S3ExpressStoreProps.builder()
                .network(f.network()).baseName("features").encryptionKey(key).build());

        assertRule("TRAINING_OUTPUT_DIRECTORY_BUCKET_KMS", () -> f.define(f.props().outputBucket(store)),
                "Test/Training", "outputBucket.encryptionKey", "Test/Key",
                "none: SageMaker writes output to a directory bucket with SSE-S3 only (KMS keys are not supported "
                        + "for S3 Express One Zone)");
    }

    @Test
    void aReaderOfAKmsEncryptedBucketMayDecryptAndGenerateDataKeysWithItsKey() {
        Key key = new Key(f.stack, "Key");
        S3ExpressStore store = new S3ExpressStore(f.stack, "Express", S3ExpressStoreProps.builder()
                .network(f.network()).baseName("features").encryptionKey(key).build());
        f.define(f.props().channels(List.of(S3Channel.builder("train").store(store).build())));
        List<Map<String, Object>> kms = allStatements(Template.fromStack(f.stack)).stream()
                .filter(s -> strings(s.get("Action")).contains("kms:GenerateDataKey")).toList();

        assertEquals(1, kms.size(), kms.toString());
        assertEquals(List.of("kms:Decrypt", "kms:GenerateDataKey"), strings(kms.get(0).get("Action")));
        assertEquals(f.stack.resolve(key.getKeyArn()), kms.get(0).get("Resource"));
    }

    @Test
    void rejectsCheckpointsInADirectoryBucket() {
        S3ExpressStore store = express(f.network());

        assertRule("TRAINING_CHECKPOINT_DIRECTORY_BUCKET", () -> f.define(f.props().outputBucket(store)
                .checkpointPrefix("checkpoints")),
                "Test/Training", "checkpointPrefix", "checkpoints",
                "unset when the output bucket is a directory bucket (the definition finds earlier checkpoints with "
                        + "s3:ListBucket on a general purpose bucket)");
    }

    /** An S3 store of a platform team's own: its network, its zone and the input modes it accepts are given. */
    private static final class OwnStore extends Construct implements S3Store {
        private final TrainingNetwork network;
        private final StoreZone zone;
        private final List<String> inputModes;

        OwnStore(Construct scope, String id, TrainingNetwork network, StoreZone zone, List<String> inputModes) {
            super(scope, id);
            this.network = network;
            this.zone = zone;
            this.inputModes = inputModes;
        }

        @Override
        public String getBucketName() {
            return "own-data";
        }

        @Override
        public String getBucketArn() {
            return "arn:aws:s3:::own-data";
        }

        @Override
        public String getDatasetPrefix() {
            return "";
        }

        @Override
        public List<String> getInputModes() {
            return inputModes;
        }

        @Override
        public TrainingNetwork getNetwork() {
            return network;
        }

        @Override
        public String getPinnedAvailabilityZone() {
            return null;
        }

        @Override
        public StoreZone getZone() {
            return zone;
        }

        @Override
        public void grantTraining(StoreGrants grants, StoreAccess access, String path) {
            grants.allow(List.of("s3:GetObject"), "arn:aws:s3:::own-data/*", "");
        }

        @Override
        public List<List<IWidget>> dashboardRows(Duration period) {
            return List.of();
        }
    }
}
