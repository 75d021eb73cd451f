"""Standard environments for programs: PettingZoo AEC, Gymnasium and OpenSpiel.

Every adapter talks to a game only through the engine contract: the fixed integer action
space (`num_actions`, `action_index`, `action_at`), `actors`, `actions`, `act`, `view`,
`info_key`, `determinize`, `encode` and `outcome`. Import the one you need:

    from gamenight.adapters import pettingzoo, gymnasium, openspiel
"""
