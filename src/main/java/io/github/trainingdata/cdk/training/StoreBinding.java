package io.github.trainingdata.cdk.training;

import static io.github.trainingdata.cdk.training.AslStates.fail;
import static io.github.trainingdata.cdk.training.AslStates.not;
import static io.github.trainingdata.cdk.training.AslStates.rule;
import static io.github.trainingdata.cdk.training.AslStates.transientErrors;

import io.github.trainingdata.cdk.ConfigurationError;
import io.github.trainingdata.cdk.SynthRule;
import io.github.trainingdata.cdk.internal.Deployments;
import io.github.trainingdata.cdk.storage.EfsStore;
import io.github.trainingdata.cdk.storage.LustreCache;
import io.github.trainingdata.cdk.storage.StorePublication;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Stage;
import software.amazon.awscdk.Token;
import software.constructs.IConstruct;

/**
 * The file systems (Lustre caches and EFS stores) a job reads from another stack, bound when each execution or launch
 * starts instead of at deploy: nothing a replacement of the store changes (file system id, mount name, Availability
 * Zone, the data subnet jobs run in) crosses the stack boundary. The store's stack publishes it
 * ({@link StorePublication}); the definition's stack then depends on the store's stack, so that
 * {@code cdk deploy --all} deploys the store's first. In one stack a store is referenced plainly (a change shows in
 * {@code cdk diff}).
 *
 * <p>The request document keeps a placeholder {@code {{DataStore:<parameter name>:<member>}}} wherever a published
 * value goes (the SDK launcher fills them in, {@code io.github.trainingdata.cdk.launch.DataStoreBindings}); the state
 * machine reads each publication before it names the job, checks it, and renders the channels and subnets from it.
 */
final class StoreBinding {
    static final SynthRule STORE_STACK = SynthRule.of("TRAINING_STORE_STACK", "TrainingJobDefinition",
            "channels[].cache, channels[].store",
            "a cache or EFS store in the definition's stack, or in a stack of the same stage that does not depend on "
                    + "the definition's stack (the definition's stack is made to depend on it)",
            "library (the cache's stack must deploy, and publish, before the definition's)");
    static final SynthRule STORE_PUBLISHED = SynthRule.of("TRAINING_STORE_PUBLISHED", "TrainingJobDefinition",
            "channels[].cache, channels[].store",
            "a cache or EFS store of another stack in the definition's account and Region, where its publication (an "
                    + "SSM parameter) can be read by name",
            "SSM API reference, GetParameter (a parameter is read by name, in the caller's account and Region)");
    static final SynthRule REQUEST_IN_PARAMETER = SynthRule.of("TRAINING_STORE_REQUEST_IN_PARAMETER",
            "TrainingJobDefinition", "channels[].cache, channels[].store",
            "a cache or EFS store of another stack only with a request document that fits the SSM parameter (8192 bytes)",
            "library (the state machine renders a bound request at run time, so the SDK launcher reads the "
                    + "parameter's)");
    /** The error of an execution whose store's parameter does not exist. */
    static final String NOT_PUBLISHED = "DataStoreNotPublished";
    /** The error of an execution whose store's document lacks a value a job needs, or has a malformed one. */
    static final String INCOMPLETE = "DataStoreIncomplete";
    static final String BIND_STATE = "BindDataStores";
    static final String CHECK_STATE = "CheckDataStores";
    /** Where {@link #BIND_STATE} keeps the channels and subnets it rendered, in the state's output. */
    static final String BINDING = "dataStoreBinding";
    private static final String PARAMETER_NOT_FOUND = "Ssm.ParameterNotFoundException";
    /** The publication's member with the cache's Availability Zone (the bound subnets' zone). */
    private static final String ZONE = "AvailabilityZone";
    private static final StoreBinding NONE = new StoreBinding(List.of(), Map.of(), null);

    /**
     * A store read at run time (a {@link LustreCache} or an {@link EfsStore}): its publication, and its index (its
     * document's place in the execution's state).
     */
    record BoundStore(IConstruct cache, StorePublication publication, int index) {
        /** @return whether the store is a Lustre cache, whose document also holds the mount name */
        boolean lustre() {
            return cache instanceof LustreCache;
        }

        /** @return the state path of the parsed document */
        String document() {
            return "$.dataStore" + index + ".Document";
        }

        /** @return the request document's placeholder for {@code member} of the publication */
        String placeholder(String member) {
            return "{{DataStore:" + publication.getParameterName() + ":" + member + "}}";
        }
    }

    private final List<BoundStore> stores;
    private final Map<Integer, BoundStore> byChannel;
    private final BoundStore subnets;

    private StoreBinding(List<BoundStore> stores, Map<Integer, BoundStore> byChannel, BoundStore subnets) {
        this.stores = stores;
        this.byChannel = byChannel;
        this.subnets = subnets;
    }

    /**
     * Binds the Lustre and EFS channels of {@code spec} whose store lives in another stack than {@code definition}:
     * checks that the store's stack can deploy first, makes the definition's stack depend on it, and publishes the
     * store.
     *
     * @throws ConfigurationError when a store's stack cannot deploy first or publishes out of reach
     */
    static StoreBinding of(IConstruct definition, TrainingJobSpec spec, JobPlacement placement) {
        Stack own = Stack.of(definition);
        List<BoundStore> stores = new ArrayList<>();
        Map<Integer, BoundStore> byChannel = new LinkedHashMap<>();
        List<TrainingChannel> channels = spec.getChannels();
        for (int i = 0; i < channels.size(); i++) {
            IConstruct cache = fileSystemStore(channels.get(i));
            if (cache == null || !crossesStacks(definition, cache)) {
                continue; // one deployment: a nested stack gets its parent's values in the same update
            }
            BoundStore bound = stores.stream().filter(s -> s.cache() == cache).findFirst().orElse(null);
            if (bound == null) {
                checkReachable(definition, own, Stack.of(cache), i, cache, channels.get(i) instanceof EfsChannel);
                own.addStackDependency(Stack.of(cache), "reads " + cache.getNode().getPath() + " when each job starts");
                StorePublication publication = cache instanceof LustreCache lustre ? lustre.publication()
                        : ((EfsStore) cache).publication();
                bound = new BoundStore(cache, publication, stores.size());
                stores.add(bound);
            }
            byChannel.put(i, bound);
        }
        if (stores.isEmpty()) {
            return NONE;
        }
        boolean defaultSubnets = placement.network() != null && spec.getVpcSubnets() == null
                && Stack.of(placement.network()) != own;
        return new StoreBinding(List.copyOf(stores), byChannel, defaultSubnets ? stores.get(0) : null);
    }

    /** @return the Lustre cache or EFS store {@code channel} mounts, or null for an S3 channel */
    private static IConstruct fileSystemStore(TrainingChannel channel) {
        if (channel instanceof LustreChannel lustre) {
            return lustre.getCache();
        }
        return channel instanceof EfsChannel efs ? efs.getStore() : null;
    }

    /** @return whether {@code store} deploys separately from {@code reader}, which then binds to it at run time */
    static boolean crossesStacks(IConstruct reader, IConstruct store) {
        return Deployments.separate(reader, store);
    }

    private static void checkReachable(IConstruct definition, Stack own, Stack theirs, int index, IConstruct cache,
            boolean efs) {
        String field = "channels[" + index + "]." + (efs ? "store" : "cache");
        String kind = efs ? "an EFS store" : "a cache";
        if (differ(own.getRegion(), theirs.getRegion()) || differ(own.getAccount(), theirs.getAccount())) {
            throw ConfigurationError.of(STORE_PUBLISHED, definition, field, cache.getNode().getPath(),
                    kind + " in the definition's account and Region (" + own.getAccount() + ", " + own.getRegion()
                            + "): " + theirs.getStackName() + " publishes it in " + theirs.getAccount() + ", "
                            + theirs.getRegion() + ", so nobody publishes it where the definition runs");
        }
        if (Stage.of(own) != Stage.of(theirs) || dependsOn(theirs, own, new ArrayList<>())) {
            throw ConfigurationError.of(STORE_STACK, definition, field, cache.getNode().getPath(),
                    kind + " in a stack of the same stage that does not depend on " + own.getStackName()
                            + " (the definition's stack must depend on the store's stack, which then deploys first)");
        }
    }

    private static boolean differ(String a, String b) {
        return !Token.isUnresolved(a) && !Token.isUnresolved(b) && !a.equals(b);
    }

    /** @return whether {@code stack} depends, directly or through others, on {@code other} */
    private static boolean dependsOn(Stack stack, Stack other, List<Stack> seen) {
        for (Stack dependency : stack.getDependencies()) {
            if (dependency == other || !seen.contains(dependency) && seen.add(dependency)
                    && dependsOn(dependency, other, seen)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A bound request is rendered by the state machine at run time, so the SDK launcher cannot read it from the state
     * machine's definition: it must fit the SSM parameter.
     */
    void checkRequestInParameter(IConstruct definition, long bound) {
        if (!stores.isEmpty()) {
            int channel = byChannel.keySet().iterator().next();
            BoundStore first = byChannel.get(channel);
            throw ConfigurationError.of(REQUEST_IN_PARAMETER, definition,
                    "channels[" + channel + "]." + (first.lustre() ? "cache" : "store"),
                    first.cache().getNode().getPath() + " (another stack's) for a request document of up to "
                            + (bound >= RequestDocumentBound.UNBOUNDED ? "an unknown number of" : Long.toString(bound))
                            + " bytes", "a store of this stack, or a request document that fits the SSM parameter ("
                            + TrainingJobDefinition.MAX_PARAMETER_DOCUMENT_BYTES + " bytes): the state machine reads "
                            + "the store at run time, so the SDK launcher reads the parameter's request");
        }
    }

    /** @return whether no channel is bound at run time */
    boolean isEmpty() {
        return stores.isEmpty();
    }

    /** @return whether the job's subnets are bound at run time (the network's data subnet, in another stack) */
    boolean bindsSubnets() {
        return subnets != null;
    }

    /** @return the publications read, in order */
    List<StorePublication> publications() {
        return stores.stream().map(BoundStore::publication).toList();
    }

    /** @return channel {@code index} as the request document holds it: rendered, or with placeholders when bound */
    Map<String, Object> requestChannel(int index, TrainingChannel channel) {
        BoundStore bound = byChannel.get(index);
        if (bound == null) {
            return channel.render();
        }
        if (channel instanceof EfsChannel efs) {
            return fileSystemChannel(efs, bound.placeholder(StorePublication.FILE_SYSTEM_ID), null,
                    efs.getDirectoryPath(), null);
        }
        LustreChannel lustre = (LustreChannel) channel;
        return fileSystemChannel(lustre, bound.placeholder(StorePublication.FILE_SYSTEM_ID), null,
                "/" + bound.placeholder(StorePublication.MOUNT_NAME) + below(lustre), null);
    }

    /** @return VpcConfig.Subnets as the request document holds it: one placeholder for the published list */
    String requestSubnets() {
        return subnets.placeholder(StorePublication.SUBNETS);
    }

    private static String below(LustreChannel channel) {
        String below = channel.location().getPathBelowMount();
        return below.isEmpty() ? "" : "/" + below;
    }

    /** A FileSystemDataSource channel, each of id and path either literal or (the {@code .$} form) a state path. */
    private static Map<String, Object> fileSystemChannel(FileSystemChannel channel, String id, String idPath,
            String directory, String directoryPath) {
        Map<String, Object> fs = new LinkedHashMap<>();
        fs.put(id != null ? "FileSystemId" : "FileSystemId.$", id != null ? id : idPath);
        fs.put("FileSystemAccessMode", channel.getAccessMode().apiValue());
        fs.put("FileSystemType", channel.fileSystemType());
        fs.put(directory != null ? "DirectoryPath" : "DirectoryPath.$", directory != null ? directory : directoryPath);
        Map<String, Object> rendered = new LinkedHashMap<>();
        rendered.put("ChannelName", channel.getName());
        rendered.put("DataSource", Map.of("FileSystemDataSource", fs));
        rendered.put("InputMode", ChannelInputMode.FILE.apiValue());
        return rendered;
    }

    /**
     * Adds the states that read and check every publication, then render the channels and subnets into
     * {@code $.dataStoreBinding}; they run after the prerequisite waits (a held-back job reads the cache its warm-up
     * warmed).
     *
     * @return the first state, or {@code next} when nothing is bound
     */
    String addStates(Map<String, Object> states, String next, String partition, List<TrainingChannel> channels) {
        if (stores.isEmpty()) {
            return next;
        }
        List<Map<String, Object>> incomplete = new ArrayList<>();
        for (BoundStore store : stores) {
            String after = store.index() + 1 < stores.size() ? read(store.index() + 1) : CHECK_STATE;
            states.put(read(store.index()), readState(store, after, partition));
            String failed = INCOMPLETE + store.index();
            List<String> members = new ArrayList<>(List.of(StorePublication.FILE_SYSTEM_ID));
            if (store.lustre()) {
                members.add(StorePublication.MOUNT_NAME);
            }
            if (store == subnets) {
                // BindDataStores reads both: a missing one would fail that Pass state with States.Runtime.
                members.add(StorePublication.SUBNETS);
                members.add(ZONE);
            }
            for (String member : members) {
                incomplete.add(rule(not(condition(path(store, member), "IsPresent", true)), failed));
            }
            if (store == subnets) {
                incomplete.add(rule(not(condition(path(store, ZONE), "IsString", true)), failed));
            }
            incomplete.add(rule(not(condition(path(store, StorePublication.FILE_SYSTEM_ID), "IsString", true)), failed));
            if (store.lustre()) {
                incomplete.add(rule(not(condition(path(store, StorePublication.MOUNT_NAME), "IsString", true)), failed));
            }
            incomplete.add(rule(not(condition(path(store, StorePublication.FILE_SYSTEM_ID), "StringMatches", "fs-*")),
                    failed));
            states.put(NOT_PUBLISHED + store.index(), fail(NOT_PUBLISHED, "SSM parameter "
                    + store.publication().getParameterName() + ", where " + store.cache().getNode().getPath()
                    + " publishes what jobs read of it, does not exist: deploy the stack that owns the "
                    + (store.lustre() ? "cache" : "store") + " (" + Stack.of(store.cache()).getStackName() + ") first"));
            states.put(failed, fail(INCOMPLETE, "SSM parameter " + store.publication().getParameterName()
                    + " does not hold what jobs need of " + store.cache().getNode().getPath() + " ("
                    + String.join(", ", members) + "; FileSystemId as fs-...): is its stack half-deployed or the "
                    + "parameter changed by hand? Deploy the stack that owns the " + (store.lustre() ? "cache" : "store")
                    + " again"));
        }
        Map<String, Object> check = new LinkedHashMap<>();
        check.put("Type", "Choice");
        check.put("Comment", "Every published store holds what the job needs");
        check.put("Choices", incomplete);
        check.put("Default", BIND_STATE);
        states.put(CHECK_STATE, check);

        Map<String, Object> binding = new LinkedHashMap<>();
        List<Map<String, Object>> rendered = new ArrayList<>();
        for (int i = 0; i < channels.size(); i++) {
            BoundStore store = byChannel.get(i);
            if (store == null) {
                rendered.add(channels.get(i).render());
                continue;
            }
            if (channels.get(i) instanceof EfsChannel efs) {
                rendered.add(fileSystemChannel(efs, null, path(store, StorePublication.FILE_SYSTEM_ID),
                        efs.getDirectoryPath(), null));
                continue;
            }
            LustreChannel lustre = (LustreChannel) channels.get(i);
            rendered.add(fileSystemChannel(lustre, null, path(store, StorePublication.FILE_SYSTEM_ID), null,
                    "States.Format('/{}" + TrainingStateMachine.formatLiteral(below(lustre)) + "', "
                            + path(store, StorePublication.MOUNT_NAME) + ")"));
        }
        binding.put("InputDataConfig", rendered);
        if (subnets != null) {
            binding.put("Subnets.$", path(subnets, StorePublication.SUBNETS));
            binding.put("AvailabilityZones.$", "States.Array(" + path(subnets, ZONE) + ")");
        }
        Map<String, Object> bind = new LinkedHashMap<>();
        bind.put("Type", "Pass");
        bind.put("Comment", "The channels" + (subnets != null ? " and subnets" : "") + " of the stores read at run time");
        bind.put("Parameters", binding);
        bind.put("ResultPath", "$." + BINDING);
        bind.put("Next", next);
        states.put(BIND_STATE, bind);
        return read(0);
    }

    private static String read(int index) {
        return "ReadDataStore" + index;
    }

    private static String path(BoundStore store, String member) {
        return store.document() + "." + member;
    }

    private static Map<String, Object> condition(String variable, String operator, Object value) {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("Variable", variable);
        condition.put(operator, value);
        return condition;
    }

    /**
     * Reads one publication and parses its document; a missing parameter fails at once, throttling and other
     * transient errors are retried.
     */
    private static Map<String, Object> readState(BoundStore store, String next, String partition) {
        Map<String, Object> missing = new LinkedHashMap<>();
        missing.put("ErrorEquals", List.of(PARAMETER_NOT_FOUND));
        missing.put("Next", NOT_PUBLISHED + store.index());
        Map<String, Object> noRetry = new LinkedHashMap<>();
        noRetry.put("ErrorEquals", List.of(PARAMETER_NOT_FOUND));
        noRetry.put("MaxAttempts", 0);
        Map<String, Object> read = new LinkedHashMap<>();
        read.put("Type", "Task");
        read.put("Comment", "Read what " + store.cache().getNode().getPath() + " publishes, as it is now");
        read.put("Resource", "arn:" + partition + ":states:::aws-sdk:ssm:getParameter");
        read.put("Parameters", Map.of("Name", store.publication().getParameterName()));
        read.put("ResultSelector", Map.of("Document.$", "States.StringToJson($.Parameter.Value)"));
        read.put("ResultPath", "$.dataStore" + store.index());
        read.put("TimeoutSeconds", AslStates.CALL_TIMEOUT_SECONDS);
        read.put("Retry", List.of(noRetry, transientErrors()));
        read.put("Catch", List.of(missing));
        read.put("Next", next);
        return read;
    }
}
