"""The environments: PettingZoo, Gymnasium, OpenSpiel (with their own checkers) and VectorGames."""

import numpy as np
import pytest

import vlt


def test_pettingzoo_api_test():
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    from vlt.pettingzoo import vai_lung_thlan_v0

    pettingzoo_test.api_test(vai_lung_thlan_v0.env(), num_cycles=300)
    pettingzoo_test.api_test(vai_lung_thlan_v0.env(reward="captures"), num_cycles=300)


def test_pettingzoo_game_and_rewards():
    pytest.importorskip("pettingzoo")
    from vlt.pettingzoo import vai_lung_thlan_v0

    env = vai_lung_thlan_v0.env(reward="captures")
    env.reset(seed=3)
    total = {"player_0": 0, "player_1": 0}
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and tuple(np.flatnonzero(mask)) == env.legal_actions()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    b, a = env.position.captured
    assert total["player_0"] == b - a == -total["player_1"]


def test_pettingzoo_illegal_action_forfeits():
    pytest.importorskip("pettingzoo")
    from vlt.pettingzoo import vai_lung_thlan_v0

    env = vai_lung_thlan_v0.env()
    env.reset()
    env.step(0)  # 1B
    env.step(0)  # 1A
    env.step(0)  # B's 1B is empty: illegal
    assert env.terminations["player_0"] and env.infos["player_0"]["illegal"]
    assert env.rewards == {"player_0": -1, "player_1": 1}


def test_gymnasium_check_env_with_each_opponent(tb8):
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import vlt.gymnasium

    for opponent in ["random", "greedy", "level:2"]:
        env = gym.make("vlt/VaiLungThlan-v0", opponent=opponent, agent="random")
        check_env(env.unwrapped, skip_render_check=True)
    check_env(vlt.gymnasium.VaiLungThlanEnv(opponent="perfect", tablebase=tb8), skip_render_check=True)


def test_gymnasium_rewards_add_up_to_the_capture_difference():
    gym = pytest.importorskip("gymnasium")
    import vlt.gymnasium  # noqa: F401

    env = gym.make("vlt/VaiLungThlan-v0", opponent="greedy", agent="A")
    obs, info = env.reset(seed=1)
    total, done = 0.0, False
    rng = np.random.default_rng(1)
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        total += reward
        done = term or trunc
    b, a = env.unwrapped.position.captured
    assert total == a - b
    assert obs.shape == (14,) and obs[12] == a and obs[13] == b


def test_gymnasium_illegal_action_and_bad_options():
    pytest.importorskip("gymnasium")
    import vlt.gymnasium

    env = vlt.gymnasium.VaiLungThlanEnv(opponent="random", reward="win")
    env.reset(seed=0)
    env.step(0)  # 1B is empty now, unless A's reply sowed into it
    while env.action_masks()[0]:
        env.reset()
        env.step(0)
    _, reward, term, _, info = env.step(0)
    assert term and reward == -1.0 and info["illegal"]
    with pytest.raises(ValueError, match="unknown opponent"):
        vlt.gymnasium.VaiLungThlanEnv(opponent="genius")
    with pytest.raises(ValueError, match="needs tablebase"):
        vlt.gymnasium.VaiLungThlanEnv(opponent="perfect")
    with pytest.raises(ValueError, match="out of range 1-10"):
        vlt.gymnasium.VaiLungThlanEnv(opponent="level:12")


def test_perfect_opponent_plays_the_tables_best_moves(tb8):
    from vlt._vlt import EnvCore

    pos = "0,1,0,2,0,1/1,0,2,0,1,0 A 27 25"
    core = EnvCore(opponent="perfect", tablebase=tb8, start=pos, agent="B")
    values = tb8.moves(pos)
    assert values[core.opponent_move()] == max(values.values())


def test_openspiel_random_sim_test():
    pyspiel = pytest.importorskip("pyspiel")
    import vlt.openspiel  # noqa: F401

    for params in [{}, {"returns": "captures"}, {"max_moves": 30}]:
        game = pyspiel.load_game("vai_lung_thlan", params)
        pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_openspiel_state_and_observation():
    pyspiel = pytest.importorskip("pyspiel")
    import vlt.openspiel  # noqa: F401

    game = pyspiel.load_game("vai_lung_thlan", {"returns": "captures"})
    s = game.new_initial_state()
    assert s.legal_actions() == [0, 1, 2, 3, 4, 5] and s.current_player() == 0
    s.apply_action(2)
    assert str(s) == "5,5,0,6,6,6/6,6,5,5,5,5 A 0 0"
    assert s.action_to_string(1, 0) == "1A"
    assert list(s.observation_tensor(1)) == [6, 6, 5, 5, 5, 5, 5, 5, 0, 6, 6, 6, 0, 0]
    c = s.clone()
    c.apply_action(0)
    assert str(s) == "5,5,0,6,6,6/6,6,5,5,5,5 A 0 0" and str(c) != str(s)
    back = game.deserialize_state(s.serialize())
    assert str(back) == str(s)
    with pytest.raises(Exception, match="returns"):
        pyspiel.load_game("vai_lung_thlan", {"returns": "both"})


def test_vector_games_arrays_and_rules():
    from vlt.vector import VectorGames, random_actions

    v = VectorGames(64, seed=2, reward="captures")
    mask = v.legal_mask()
    assert mask.shape == (64, 6) and mask.dtype == np.bool_ and mask.all()
    assert v.obs.shape == (64, 14) and v.obs.dtype == np.float32
    assert (v.obs[:, :12] == 5).all()
    rng = np.random.default_rng(0)
    # Follow game 0 with vlt.Game: the same moves give the same positions, rewards and end.
    g = vlt.Game()
    ended = 0
    for _ in range(3000):
        a = random_actions(mask, rng)
        move = g.legal_moves()[list(np.flatnonzero(mask[0])).index(a[0])]
        obs, rewards, dones = v.step(a)
        assert v.legal_mask() is mask or np.shares_memory(v.legal_mask(), mask)
        captured = g.play(move)
        assert rewards[0] == captured
        assert dones[0] == g.is_over
        if g.is_over:
            ended += 1
            w = g.result["winner"]
            assert v.winners[0] == {"B": 0, "A": 1, None: -1}[w]
            g = vlt.Game()
        assert v.position(0) == g.position
    assert ended >= 5


def test_vector_games_end_as_vlt_game_does_r7():
    # Every game of the batch in lockstep with a vlt.Game: half follow R7's example cycle (which
    # ends by the third occurrence), half play random moves (which end on an empty board).
    from vlt.vector import VectorGames, random_actions

    start = "1,0,1,0,1,0/1,2,0,1,2,0 A 25 26"
    cycle = "5A 1B 2A 3B 4A 5B 6A 2B 1A 4B 3A 6B".split()
    n = 8
    v = VectorGames(n, start=start, reward="win")
    games = [vlt.Game(start) for _ in range(n)]
    rng = np.random.default_rng(5)
    ends = {"repetition": 0, "empty board": 0}
    for _ in range(300):
        a = random_actions(v.legal_mask(), rng)
        for i in range(n // 2):
            a[i] = int(cycle[len(games[i].moves) % len(cycle)][0]) - 1
        obs, rewards, dones = v.step(a)
        for i, g in enumerate(games):
            mover = g.position.to_move
            g.play(f"{a[i] + 1}{mover}")
            assert dones[i] == g.is_over, (i, g.moves)
            if g.is_over:
                r = g.result
                ends[r["termination"]] += 1
                assert (r["termination"] == "repetition") == (i < n // 2)
                assert v.winners[i] == {"B": 0, "A": 1, None: -1}[r["winner"]]
                assert rewards[i] == (0 if r["winner"] is None else 1 if r["winner"] == mover else -1)
                games[i] = vlt.Game(start)
            else:
                assert rewards[i] == 0
            assert v.position(i) == games[i].position
    assert ends["repetition"] >= 4 * 12 and ends["empty board"] >= 4
    with pytest.raises(ValueError, match="the game is over"):
        VectorGames(2, start="0,0,0,0,0,0/0,0,0,0,0,0 B 30 30")


def test_vector_games_openings_and_cut():
    # Random openings and the cut at max_moves: games end (or are cut) and start again.
    from vlt.vector import VectorGames, random_actions

    v = VectorGames(256, seed=1, random_plies=4, max_moves=20)
    assert not (v.obs[:, :12] == 5).all()
    rng = np.random.default_rng(3)
    done = cut = 0
    for _ in range(100):
        _, _, dones = v.step(random_actions(v.legal_mask(), rng))
        done += int(dones.sum())
        cut += int(v.truncated.sum())
        assert (v.truncated <= dones).all()
    assert done >= 256 * 4 and cut > 0


def test_vector_games_values_from_tables(tb8):
    from vlt.vector import VectorGames, random_actions

    v = VectorGames(32, tablebase=tb8)
    assert np.isnan(v.values).all()
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(2000):
        v.step(random_actions(v.legal_mask(), rng))
        for i in np.flatnonzero(~np.isnan(v.values)):
            p = v.position(int(i))
            assert v.values[i] == tb8.value(p)
            mv = tb8.moves(p)
            row = v.move_values[i]
            for k in range(6):
                name = f"{k + 1}{p.to_move}"
                assert (np.isnan(row[k]) and name not in mv) or row[k] == mv[name]
            seen += 1
    assert seen > 100


def test_vector_games_bad_input():
    from vlt.vector import VectorGames

    v = VectorGames(4)
    with pytest.raises(ValueError, match="expected 4 actions"):
        v.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"actions\[2\]: 9 is not a legal action"):
        v.step(np.array([0, 0, 9, 0], dtype=np.int64))
    v.step(np.zeros(4, dtype=np.int64))
    v.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(ValueError, match=r"actions\[0\]: 0 is not a legal action"):
        v.step(np.zeros(4, dtype=np.int64))  # 1B is empty now
    with pytest.raises(ValueError, match="out of range"):
        VectorGames(0)
    with pytest.raises(ValueError, match="unknown reward"):
        VectorGames(2, reward="points")


def test_environments_deep_copy_mid_game():
    # A copy goes on exactly as the original would (same random source, same opponent), and
    # neither changes the other.
    import copy

    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    import vlt.gymnasium
    from vlt.pettingzoo import vai_lung_thlan_v0

    env = vai_lung_thlan_v0.env(reward="captures")
    env.reset(seed=4)
    for a in [2, 3, 1]:
        env.step(a)
    twin = copy.deepcopy(env)
    assert twin.position == env.position and twin.agent_selection == env.agent_selection
    assert twin._cumulative_rewards == env._cumulative_rewards and twin.rewards is not env.rewards
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()):
        a = int(rng.choice(env.legal_actions()))
        env.step(a)
        twin.step(a)
        assert (env.last()[0]["observation"] == twin.last()[0]["observation"]).all()
        assert env.rewards == twin.rewards
    assert twin.terminations == env.terminations

    g = vlt.gymnasium.VaiLungThlanEnv(opponent="random", agent="random")
    g.reset(seed=7)
    g.step(g.legal_actions()[0])
    h = copy.deepcopy(g)
    assert h.position == g.position and h.agent == g.agent
    done = False
    while not done:
        a = g.legal_actions()[-1]
        o1, r1, t1, u1, _ = g.step(a)
        o2, r2, t2, u2, _ = h.step(a)
        assert (o1 == o2).all() and (r1, t1, u1) == (r2, t2, u2)
        done = t1 or u1


def test_observations_held_by_the_caller_never_change():
    # The environments recycle observation arrays only once nobody holds them: the ones a caller
    # keeps stay as they were handed out, and views, dicts and masks alike.
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    import vlt.gymnasium
    from vlt.pettingzoo import vai_lung_thlan_v0

    env = vai_lung_thlan_v0.env()
    env.reset(seed=0)
    kept, copies, views = [], [], []
    for i, agent in enumerate(env.agent_iter(max_iter=60)):
        obs, _, term, trunc, _ = env.last()
        if i % 3 == 0:
            kept.append(obs)
            copies.append({k: v.copy() for k, v in obs.items()})
        elif i % 3 == 1:
            views.append((obs["observation"][:6], obs["observation"][:6].copy()))
        env.step(None if term or trunc else env.legal_actions()[0])
    for obs, c in zip(kept, copies):
        assert all((obs[k] == c[k]).all() for k in c)
    assert all((v == c).all() for v, c in views)
    assert len({id(o) for o in kept}) == len(kept)

    g = vlt.gymnasium.VaiLungThlanEnv(opponent="random")
    obs, info = g.reset(seed=0)
    history = [(obs, obs.copy(), info["action_mask"], info["action_mask"].copy())]
    for _ in range(20):
        obs, _, term, trunc, info = g.step(g.legal_actions()[0])
        history.append((obs, obs.copy(), info["action_mask"], info["action_mask"].copy()))
        if term or trunc:
            break
    assert all((o == c).all() and (m == mc).all() for o, c, m, mc in history)
    # Dropped ones are reused: a loop that keeps nothing allocates no new arrays.
    import weakref

    env.reset(seed=1)
    first = weakref.ref(env.observe("player_0")["observation"])
    for a in [0, 1, 2]:
        env.step(a)
        assert env.observe("player_0")["observation"] is first()


def test_step_methods_per_subclass_and_python_overrides_kept():
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    import inspect

    import vlt.gymnasium
    from vlt._vlt import AecCore, GymCore
    from vlt.pettingzoo import vai_lung_thlan_v0

    raw = vai_lung_thlan_v0.raw_env
    # Each subclass has native descriptors of its own (which CPython calls inline), and so has
    # each core.
    for cls, core, names in [
        (raw, AecCore, ["step", "last", "legal_actions"]),
        (vlt.gymnasium.VaiLungThlanEnv, GymCore, ["step", "legal_actions"]),
    ]:
        for name in names:
            assert vars(cls)[name].__objclass__ is cls
            assert vars(core)[name].__objclass__ is core
    assert str(inspect.signature(raw.step)) == "(self, action, /)"
    assert str(inspect.signature(raw.last)) == "(self, /, observe=True)"

    class Counting(raw):
        steps = 0

        def step(self, action):
            Counting.steps += 1
            super().step(action)

    class Deeper(Counting):
        pass

    # A Python override is kept, in its class and below it; the other methods are native.
    assert "step" not in vars(Deeper) and vars(Deeper)["last"].__objclass__ is Deeper
    env = Deeper()
    env.reset(seed=0)
    env.step(2)
    assert Counting.steps == 1 and env.agent_selection == "player_1"
    # `last`'s argument as a Python method takes it.
    assert env.last(False)[0] is None and env.last(observe=False)[0] is None
    assert set(env.last(True)[0]) == {"observation", "action_mask"}
    with pytest.raises(TypeError, match="at most 1 argument"):
        env.last(True, True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'obs'"):
        env.last(obs=True)
    with pytest.raises(TypeError, match="multiple values"):
        env.last(True, observe=True)


def test_pettingzoo_dead_steps_after_the_cut():
    pytest.importorskip("pettingzoo")
    from vlt.pettingzoo import vai_lung_thlan_v0

    env = vai_lung_thlan_v0.env(max_moves=2)
    env.reset(seed=0)
    env.step(2)
    env.step(0)
    assert env.truncations == {"player_0": True, "player_1": True} and env.last()[3]
    with pytest.raises(ValueError, match="the only valid action is None"):
        env.step(1)
    env.step(None)
    env.step(None)
    assert env.agents == []
    env.reset()
    assert env.agents == ["player_0", "player_1"] and not any(env.truncations.values())
    env.step(2)
    assert env.agent_selection == "player_1"


def test_pettingzoo_last_returns_what_the_dicts_hold_after_callers_change_them():
    pytest.importorskip("pettingzoo")
    from vlt.pettingzoo import vai_lung_thlan_v0

    env = vai_lung_thlan_v0.env()
    env.reset(seed=0)
    env.step(2)
    assert env.last()[1:4] == (0, False, False)  # read from the dicts, then kept
    cumulative = env._cumulative_rewards
    env.last()
    cumulative["player_1"] = 5  # changed later, through a reference held meanwhile
    assert env.last()[1] == 5
    env.terminations["player_1"] = True
    assert env.last()[2] is True
    env.truncations = {"player_0": False, "player_1": True}
    assert env.last()[3] is True
    env.reset(seed=0)
    env.step(2)
    env.last()
    env.step(0)  # player_1's move sets its cumulative reward to 0 again, in the dict too
    assert env._cumulative_rewards["player_1"] == 0 and env.last()[1] == 0
