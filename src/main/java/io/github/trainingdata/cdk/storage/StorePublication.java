package io.github.trainingdata.cdk.storage;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.internal.ReplaceableReference;
import io.github.trainingdata.cdk.network.TrainingNetwork;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.ssm.ParameterTier;
import software.amazon.awscdk.services.ssm.StringParameter;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * What training jobs need of a store that lives in another stack, published by the store's own stack under a stable,
 * deterministic name: an SSM parameter {@code /training-data/stores/<construct path, '/' as '.'>} holding a small JSON
 * document ({@code Store}, {@code FileSystemType}, {@code FileSystemId}, {@code MountName}, {@code DnsName},
 * {@code AvailabilityZone}, {@code Subnets}). A training execution and an SDK launch read it when they start, so a
 * replacement of the store (a new file system id, mount name, Availability Zone or data subnet) changes only this
 * parameter's value, never a value another stack imports or reads at deploy time. A {@link TrainingNetwork} read from
 * another stack publishes the same way under {@code /training-data/networks/<construct path>} ({@link #of(TrainingNetwork)}:
 * its data zone and subnet, its storage subnets and its training security group).
 *
 * <p>The publication is the store's sibling ({@code <store id>Publication}), not its child, so that it can be updated
 * after what must come first ({@link #publishAfter}: the cache's preload), while the preload still depends on
 * everything under the cache: a replaced cache is published once its warm-up has started (or, when the deploy waits
 * for it, finished), and no execution reads it cold.
 *
 * <p>The trade-off: a wrong or missing value now fails at run time (the execution or launch names the store and
 * the parameter) instead of at deploy.
 */
public final class StorePublication extends Construct {
    /** The first part of every store publication's parameter name. */
    public static final String NAME_PREFIX = "/training-data/stores/";
    /** The first part of every network publication's parameter name. */
    public static final String NETWORK_NAME_PREFIX = "/training-data/networks/";
    /** The document member that names the store's construct path. */
    public static final String STORE = "Store";
    /** The document member with the file system's id. */
    public static final String FILE_SYSTEM_ID = "FileSystemId";
    /** The document member with the Lustre mount name. */
    public static final String MOUNT_NAME = "MountName";
    /** The document member with the subnets jobs that read the store run in. */
    public static final String SUBNETS = "Subnets";
    /** The document member with the Availability Zone of {@link #SUBNETS}. */
    public static final String AVAILABILITY_ZONE = "AvailabilityZone";
    /** A network's member with its storage subnets, one per zone (where a capacity policy's S3 fallback may run). */
    public static final String STORAGE_SUBNETS = "StorageSubnets";
    /** A network's member with the Availability Zone of each of {@link #STORAGE_SUBNETS}, in the same order. */
    public static final String STORAGE_ZONES = "StorageZones";
    /** A network's member with the id of its training security group. */
    public static final String SECURITY_GROUP_ID = "SecurityGroupId";
    static final SynthRule UNIQUE_NAME = SynthRule.of("STORE_PUBLICATION_UNIQUE", "LustreCache, EfsStore, TrainingNetwork",
            "publication name",
            "a name no other store (or network) of the app publishes under (construct paths map to names with '/' as '.' and "
                    + "characters outside [A-Za-z0-9_.-] as '-')",
            "library (one SSM parameter per name: a second one with the same name fails the deploy)");
    private static final String ID_SUFFIX = "Publication";

    private final IConstruct store;
    private final String parameterName;
    private final StringParameter parameter;

    private StorePublication(Construct store, String parameterName, Map<String, Object> document) {
        super((Construct) store.getNode().getScope(), idOf(store));
        this.store = store;
        this.parameterName = parameterName;
        this.parameter = StringParameter.Builder.create(this, "Resource")
                .parameterName(parameterName)
                .description("What training jobs read of " + store.getNode().getPath() + " when they start")
                .stringValue(Stack.of(store).toJsonString(document))
                .tier(ParameterTier.STANDARD)
                .build();
    }

    /**
     * The publication of {@code store}, created on first use with {@code document} (members in order).
     *
     * @throws ConfigurationError when another store of the app already publishes under the same name
     */
    static StorePublication of(Construct store, Map<String, Object> document) {
        return of(store, NAME_PREFIX, document);
    }

    /**
     * The publication of {@code network}, created on first use: what a job of another stack reads of it when it
     * starts ({@code Store}: the network's path, {@code AvailabilityZone} and {@code Subnets}: the data zone and
     * subnet, {@code StorageSubnets} and {@code StorageZones}: the subnets the data stores use, one per zone, and their
     * zones, {@code SecurityGroupId}: the
     * training security group). A data-AZ move changes the data subnet (and may replace a subnet): only this value.
     *
     * @param network the network
     * @return its publication
     * @throws ConfigurationError when another construct of the app already publishes under the same name
     */
    public static StorePublication of(TrainingNetwork network) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put(STORE, network.getNode().getPath());
        document.put(AVAILABILITY_ZONE, network.getDataAvailabilityZone());
        document.put(SUBNETS, List.of(network.getDataSubnet().getSubnetId()));
        List<ISubnet> storage = network.getVpc().selectSubnets(network.getStorageSubnets()).getSubnets();
        document.put(STORAGE_SUBNETS, storage.stream().map(ISubnet::getSubnetId).toList());
        document.put(STORAGE_ZONES, storage.stream().map(ISubnet::getAvailabilityZone).toList());
        document.put(SECURITY_GROUP_ID, network.getTrainingSecurityGroup().getSecurityGroupId());
        boolean first = existing(network) == null;
        StorePublication publication = of(network, NETWORK_NAME_PREFIX, document);
        if (first) {
            warnUpgradeWithImports(network, "this network's subnets",
                    "the data subnet's id, whose export this release drops");
        }
        return publication;
    }

    /**
     * Warns, when the app's cross-stack references are strong (or unset, which aws-cdk-lib treats as strong), that
     * definitions in other stacks deployed by 0.x import what this release stops exporting or replaces, so that
     * CloudFormation refuses this stack's update until they are deployed once with {@code "both"} (CHANGELOG,
     * Upgrading).
     *
     * @param store    the store or network that publishes
     * @param readNow  what definitions in other stacks read at run time now, e.g. {@code "this cache"}
     * @param imported what their 0.x stacks import, and why the import breaks the update
     */
    static void warnUpgradeWithImports(Construct store, String readNow, String imported) {
        Object strength = store.getNode().tryGetContext(ReplaceableReference.CONTEXT_KEY);
        if (strength != null && !"strong".equals(strength)) {
            return;
        }
        Annotations.of(store).addWarningV2("@trainingdata/storage:upgradeWithImports", store.getNode().getPath()
                + ": definitions in other stacks read " + readNow + " at run time now. If their stacks were deployed "
                + "by 0.x under strong cross-stack references (the app's " + ReplaceableReference.CONTEXT_KEY + " is "
                + (strength == null ? "unset, which aws-cdk-lib treats as strong" : "strong") + "), they import "
                + imported + ": CloudFormation then refuses this stack's update. Before upgrading, once, with 0.x: set "
                + "it to \"both\" and run cdk deploy --all (CHANGELOG, Upgrading); then acknowledge this warning");
    }

    private static StorePublication of(Construct store, String prefix, Map<String, Object> document) {
        StorePublication existing = existing(store);
        if (existing != null) {
            return existing;
        }
        String name = nameOf(prefix, store);
        for (IConstruct other : store.getNode().getRoot().getNode().findAll()) {
            if (other instanceof StorePublication published && published.parameterName.equals(name)) {
                throw ConfigurationError.of(UNIQUE_NAME, store, "publication name", name,
                        "a name no other store publishes under (" + published.store.getNode().getPath()
                                + " does): give one of them another construct id");
            }
        }
        return new StorePublication(store, name, new LinkedHashMap<>(document));
    }

    /** @return the publication of {@code store}, or null before its first use */
    static StorePublication existing(IConstruct store) {
        return store.getNode().getScope().getNode().tryFindChild(idOf(store)) instanceof StorePublication found
                ? found : null;
    }

    private static String idOf(IConstruct store) {
        return store.getNode().getId() + ID_SUFFIX;
    }

    /**
     * Updates the parameter only after {@code first} (for a Lustre cache: its preload, so that training reads a
     * replaced cache once its warm-up is current).
     *
     * @param first what must be deployed before the parameter
     */
    public void publishAfter(software.constructs.IDependable first) {
        parameter.getNode().addDependency(first);
    }

    /** @return the parameter name {@code store} publishes under: its construct path, '/' as '.', made SSM-safe */
    private static String nameOf(String prefix, IConstruct store) {
        List<String> parts = List.of(store.getNode().getPath().split("/"));
        return prefix + String.join(".", parts.stream().map(p -> p.replaceAll("[^A-Za-z0-9_.-]", "-")).toList());
    }

    /** @return the store that publishes */
    public IConstruct getStore() {
        return store;
    }

    /** @return the parameter's name: a literal, the same in every stack */
    public String getParameterName() {
        return parameterName;
    }

    /** @return the parameter */
    public StringParameter getParameter() {
        return parameter;
    }

    /**
     * The parameter's ARN as {@code reader}'s stack names it: built from the literal name and the reader's own
     * partition, Region and account, so no value crosses stacks.
     *
     * @param reader a construct in the stack that reads the parameter
     * @return the ARN
     */
    public String parameterArn(IConstruct reader) {
        return Stack.of(reader).formatArn(ArnComponents.builder().service("ssm").resource("parameter")
                .resourceName(parameterName.substring(1)).arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
    }
}
